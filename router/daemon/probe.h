// SPDX-License-Identifier: MIT
// fipsctl probe on the data-plane thread of fips-router: the reference's
// probe stages (bloom -> discovery -> path -> session -> rtt) evaluated
// against the node at the moment of the call. The first call of a probe may
// start a coordinate lookup (MeshNode::lookup, the node's own ladder); a
// call with the path known and no session opens one (as the reference's
// probe); a call on a fresh session sends one CoordsWarmup so the remote's
// session MMP reports; the client calls again while a stage is "running"
// and gives up on its own budget. The probe's session is not torn down: it
// idles out (node.session.idle_timeout_secs) unless Data adopts it. The
// npub comes from a local client and is validated here.
#pragma once

#include <map>
#include <string>

#include "control.capnp.h"
#include "router/mesh/mesh-node.h"

namespace fips::router {

// Fills `report` for npub (result ok), or `result` with a one-line error (a
// bad npub, or this node itself). startLookup: start a lookup if the
// coordinates are neither cached nor being looked up.
void runProbe(const std::string& npub, bool startLookup, mesh::MeshNode& mesh,
              const std::map<identity::NodeAddr, std::string>& aliases,
              schema::CommandResult::Builder result, schema::ProbeReport::Builder report);

}  // namespace fips::router
