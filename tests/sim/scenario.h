// SPDX-License-Identifier: MIT
// The simulator's standard measurement of one mesh: run it to one root, let
// the tree settle, measure steady control traffic, have every node look up
// every other (rounds 2.5 s apart), then walk
// every ordered pair. Used by the route test and the sim-report program.
// Test code only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "tests/sim/mesh-metrics.h"
#include "tests/sim/topology.h"
#include "tests/sim/virtual-net.h"

namespace fips::sim {

struct MeshReport {
  std::string name;
  size_t nodes = 0;
  size_t links = 0;
  std::optional<uint64_t> convergedMs;  // virtual ms to the first consistent tree
  std::optional<uint64_t> settledMs;    // virtual ms after that to the last parent switch
  TreeStats tree;                       // once settled
  RouteStats routes;
  double steadyMsgsPerNodeSec = 0;  // tree + filter messages, nothing changing
  double lookupMsgsPerNodeSec = 0;  // all messages while the all-pairs lookups run
  double wallSecs = 0;
};

// How the lookups are scheduled: in round r (1..rounds) node s looks up node
// s + r; rounds start roundMs apart. The default covers every ordered pair,
// one seeker per target per round. (With the reference's transit forward
// limit, 2 s per target whatever the origin, one round's retries dropped
// the next round's requests; ours is per origin and target, docs/STATUS.md.)
struct LookupPlan {
  size_t rounds = SIZE_MAX;
  uint64_t roundMs = 2'500;
};

MeshReport measureMesh(const std::string& name, const Topology& topology, const LinkParams& params,
                       uint64_t seed, const LookupPlan& plan = {});
// One line: every figure of the report.
std::string describe(const MeshReport& report);

}  // namespace fips::sim
