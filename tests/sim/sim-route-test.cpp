// SPDX-License-Identifier: MIT
// Lookup and routing through the simulator (issue #5, spec 03 §4-§6): on a
// converged 100-node random geometric mesh, every node looks up every other
// node (bloom-guided LookupRequest, proof-checked LookupResponse) and every
// ordered pair routes hop by hop with next-hop selection; the report gives
// convergence time, tree depth, lookup success, path stretch (routed hops /
// shortest hops) and control messages per node per second. Test code only.
#include <doctest/doctest.h>

#include "tests/sim/mesh-metrics.h"
#include "tests/sim/scenario.h"
#include "tests/sim/simulator.h"
#include "tests/sim/topology.h"

namespace fips::sim {
namespace {

TEST_CASE("sim route: 100-node random geometric mesh, every ordered pair looks up and routes") {
  const Topology t = firstConnected(51, [](uint64_t s) { return randomGeometric(100, 0.18, s); });
  const MeshReport report = measureMesh("random-geometric", t, LinkParams{10, 5, 0.0}, 51);
  REQUIRE(report.convergedMs.has_value());
  REQUIRE(report.settledMs.has_value());
  CHECK(report.tree.roots == 1);
  CHECK(report.routes.pairs == 100 * 99);
  CHECK(report.routes.resolved == report.routes.pairs);
  CHECK(report.routes.routed == report.routes.pairs);
  CHECK(report.routes.meanStretch >= 1.0);
  MESSAGE(describe(report));
}

TEST_CASE("sim route: a lookup fails while the target's key is unknown, then resolves and routes") {
  Simulator sim(grid(5, 5), LinkParams{5, 2, 0.0}, 61);
  REQUIRE(sim.runUntil(60'000, [&] { return treeConsistent(sim); }));
  REQUIRE(settle(sim, 150'000, 900'000));
  // No key for the target in the identity cache: the proof cannot be
  // checked, so the answer is discarded and the lookup runs out of attempts.
  sim.node(0).core->lookup(sim.node(24).nodeAddr);
  sim.runFor(20'000);
  CHECK(sim.node(0).failed.contains(sim.node(24).nodeAddr));
  CHECK_FALSE(routeHops(sim, 0, 24).has_value());
  sim.node(0).core->learnIdentity(sim.node(24).publicKey);
  sim.node(0).core->lookup(sim.node(24).nodeAddr);
  sim.runFor(20'000);
  CHECK(sim.node(0).resolved.contains(sim.node(24).nodeAddr));
  const auto hops = routeHops(sim, 0, 24);
  REQUIRE(hops.has_value());
  CHECK(*hops >= 8);  // corner to corner of a 5 x 5 grid
}

}  // namespace
}  // namespace fips::sim
