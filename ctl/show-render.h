// SPDX-License-Identifier: MIT
// How fipsctl prints `show status|peers|links|transports`: a JSON document
// with the reference's field names (docs/reference/control-socket.md, for
// the fields this build has), or a human table. Pure functions of the
// daemon's answer; runs in fipsctl.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "control.capnp.h"

namespace fips::ctl {

using Json = nlohmann::ordered_json;

Json statusJson(schema::NodeStatus::Reader status);
std::string statusTable(schema::NodeStatus::Reader status);

// {"peers": [...]}
Json peersJson(capnp::List<schema::PeerStatus>::Reader peers);
// nowUnixMs: for the "up" and "idle" columns.
std::string peersTable(capnp::List<schema::PeerStatus>::Reader peers, uint64_t nowUnixMs);

// {"links": [...]}
Json linksJson(capnp::List<schema::LinkStatus>::Reader links);
std::string linksTable(capnp::List<schema::LinkStatus>::Reader links, uint64_t nowUnixMs);

// {"transports": [...]}
Json transportsJson(capnp::List<schema::TransportStatus>::Reader transports);
std::string transportsTable(capnp::List<schema::TransportStatus>::Reader transports);

}  // namespace fips::ctl
