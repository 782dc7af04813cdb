// SPDX-License-Identifier: MIT
// The reference's JSON documents for show_status, show_peers, show_links and
// show_transports (docs/reference/control-socket.md; keys for the fields
// this build has), made from parts of the per-tick NodeSnapshot
// (control.capnp). Pure functions; used by fipsctl --json and by the
// router's JSON-line compatibility protocol, so both print the same
// document. The snapshot is the router's own.
#pragma once

#include "control.capnp.h"
#include "router/control/json/json.h"

namespace fips::router::control::json {

// show_status data: version, npub, node_addr, ipv6_addr, state, ...
Json statusJson(schema::NodeStatus::Reader status);

// show_peers data: {"peers": [...]}
Json peersJson(capnp::List<schema::PeerStatus>::Reader peers);

// show_links data: {"links": [...]}
Json linksJson(capnp::List<schema::LinkStatus>::Reader links);

// show_transports data: {"transports": [...]}
Json transportsJson(capnp::List<schema::TransportStatus>::Reader transports);

}  // namespace fips::router::control::json
