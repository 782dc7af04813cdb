// SPDX-License-Identifier: MIT
// fipsctl probe on the data-plane thread of fips-router: the reference's
// probe stages (bloom -> discovery -> path -> session -> rtt) evaluated
// against the node at the moment of the call. The first call of a probe may
// start a coordinate lookup (MeshNode::lookup, the node's own ladder); a
// call with the path known and no session opens one (as the reference's
// probe); a call on a fresh session sends one CoordsWarmup so the remote's
// session MMP reports; the client calls again while a stage is "running"
// and gives up on its own budget. A call that names the session the probe
// opened (ownedSessionMs) opens no other; its last call (teardown) removes
// that session unless it was replaced or Data adopted it, as the
// reference's probe. The npub comes from a local client and is validated
// here.
#pragma once

#include <map>
#include <string>

#include "control.capnp.h"
#include "router/mesh/mesh-node.h"

namespace fips::router {

// One probe call (control.capnp probe @19). startLookup: start a lookup if
// the coordinates are neither cached nor being looked up. ownedSessionMs:
// the createdMs of the session the probe opened, 0 if none (then the call
// may open one). teardown: only remove that session (report.cleanup says
// how it went). tickMs: the node's tick period, reported as tick_ms.
struct ProbeCall {
  std::string npub;
  bool startLookup = false;
  uint64_t ownedSessionMs = 0;
  bool teardown = false;
  uint32_t tickMs = 1000;
};

// Fills `report` for call.npub (result ok), or `result` with a one-line
// error (a bad npub, or this node itself).
void runProbe(const ProbeCall& call, mesh::MeshNode& mesh,
              const std::map<identity::NodeAddr, std::string>& aliases,
              schema::CommandResult::Builder result, schema::ProbeReport::Builder report);

}  // namespace fips::router
