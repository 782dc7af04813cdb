// SPDX-License-Identifier: MIT
// How fipsctl prints `show status|peers|links|transports`: the reference's
// JSON document (router/control/json, the same the router's JSON-line
// socket answers), or a human table. Pure functions of the daemon's answer;
// runs in fipsctl.
#pragma once

#include <cstdint>
#include <string>

#include "control.capnp.h"
#include "router/control/json/node-json.h"

namespace fips::ctl {

using router::control::json::Json;
using router::control::json::linksJson;
using router::control::json::peersJson;
using router::control::json::statusJson;
using router::control::json::transportsJson;

std::string statusTable(schema::NodeStatus::Reader status);

// nowUnixMs: for the "up" and "idle" columns.
std::string peersTable(capnp::List<schema::PeerStatus>::Reader peers, uint64_t nowUnixMs);

std::string linksTable(capnp::List<schema::LinkStatus>::Reader links, uint64_t nowUnixMs);

std::string transportsTable(capnp::List<schema::TransportStatus>::Reader transports);

}  // namespace fips::ctl
