// SPDX-License-Identifier: MIT
// How fipsctl prints link-layer MMP (spec 02 §9): `show mmp` as a JSON
// document with the reference's show_mmp keys or as a table, and the
// per-peer "mmp" and "stats" blocks of `show peers` / `show links`. Pure
// functions of the daemon's answer; runs in fipsctl.
#pragma once

#include <string>

#include "control.capnp.h"
#include "router/control/json/mmp-json.h"

namespace fips::ctl {

using router::control::json::Json;
using router::control::json::mmpJson;
using router::control::json::peerMmpJson;
using router::control::json::trafficJson;

// The show mmp table: SRTT, loss, ETX, jitter, goodput, link cost, packets.
std::string mmpTable(capnp::List<schema::PeerStatus>::Reader peers);

}  // namespace fips::ctl
