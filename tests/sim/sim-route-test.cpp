// SPDX-License-Identifier: MIT
// Lookup and routing through the simulator (issue #5, spec 03 §4-§6): on a
// converged 100-node random geometric mesh, every node looks up every other
// node (bloom-guided LookupRequest, proof-checked LookupResponse) and every
// ordered pair routes hop by hop with next-hop selection; the report gives
// convergence time, tree depth, lookup success, path stretch (routed hops /
// shortest hops) and control messages per node per second. Test code only.
#include <doctest/doctest.h>

#include "tests/sim/mesh-metrics.h"
#include "tests/sim/simulator.h"
#include "tests/sim/topology.h"

namespace fips::sim {
namespace {

TEST_CASE("sim route: 100-node random geometric mesh, every ordered pair looks up and routes") {
  const Topology t = firstConnected(51, [](uint64_t s) { return randomGeometric(100, 0.18, s); });
  Simulator sim(t, LinkParams{10, 5, 0.0}, 51);
  const auto converged = sim.runUntil(120'000, [&] { return treeConsistent(sim); });
  REQUIRE(converged.has_value());
  // A first consistent tree is not yet the final one: discretionary switches
  // to shallower parents follow once hold-down (30 s) and flap dampening
  // (120 s) allow. Lookups wait for it, so the coordinates they return stay
  // valid while the pairs are walked (re-lookup on PathBroken is #6).
  const auto settled = settle(sim, 150'000, 900'000);
  REQUIRE(settled.has_value());
  REQUIRE(treeConsistent(sim));
  const TreeStats tree = treeStats(sim);

  // Steady state: tree and filter traffic with nothing changing.
  const uint64_t before = controlMessages(sim);
  sim.runFor(60'000);
  const double steadyRate =
      static_cast<double>(controlMessages(sim) - before) / 60.0 / static_cast<double>(sim.size());

  for (size_t i = 0; i < sim.size(); ++i) {
    for (size_t j = 0; j < sim.size(); ++j) sim.node(i).core->learnIdentity(sim.node(j).publicKey);
  }
  // Round r: node s looks up node s + r, so each target has one seeker per
  // round; rounds 2.5 s apart clear the 2 s per-target forward limit.
  const uint64_t lookupStart = controlMessages(sim);
  const uint64_t t0 = sim.events.nowMs();
  for (size_t r = 1; r < sim.size(); ++r) {
    for (size_t s = 0; s < sim.size(); ++s) {
      sim.node(s).core->lookup(sim.node((s + r) % sim.size()).nodeAddr);
    }
    sim.runFor(2'500);
  }
  sim.runFor(16'000);  // the last attempt ladders
  const double lookupSecs = static_cast<double>(sim.events.nowMs() - t0) / 1000.0;
  const double lookupRate = static_cast<double>(controlMessages(sim) - lookupStart) / lookupSecs /
                            static_cast<double>(sim.size());

  const RouteStats routes = routeAll(sim);
  CHECK(routes.pairs == 100 * 99);
  CHECK(routes.resolved == routes.pairs);
  CHECK(routes.routed == routes.pairs);
  CHECK(routes.meanStretch >= 1.0);
  MESSAGE("100-node RGG (" << t.edges.size() << " links): one root after " << *converged
                           << " virtual ms, last parent switch after " << *settled
                           << " virtual ms; tree depth max " << tree.maxDepth << " mean "
                           << tree.meanDepth << "; lookups " << routes.resolved << "/"
                           << routes.pairs << "; routed " << routes.routed << "/" << routes.pairs
                           << "; stretch mean " << routes.meanStretch << " max "
                           << routes.maxStretch << "; control msgs/node/s steady " << steadyRate
                           << ", during all-pairs lookups " << lookupRate);
}

TEST_CASE("sim route: a lookup for an unknown identity fails, a cut path is routed around") {
  Simulator sim(grid(5, 5), LinkParams{5, 2, 0.0}, 61);
  REQUIRE(sim.runUntil(60'000, [&] { return treeConsistent(sim); }));
  REQUIRE(settle(sim, 150'000, 900'000));
  // No key for the target in the identity cache: the proof cannot be
  // checked, so the answer is discarded and the lookup runs out of attempts.
  sim.node(0).core->lookup(sim.node(24).nodeAddr);
  sim.runFor(20'000);
  CHECK(sim.node(0).failed.contains(sim.node(24).nodeAddr));
  sim.node(0).core->learnIdentity(sim.node(24).publicKey);
  sim.node(0).core->lookup(sim.node(24).nodeAddr);
  sim.runFor(20'000);
  CHECK(sim.node(0).resolved.contains(sim.node(24).nodeAddr));
  CHECK(routeHops(sim, 0, 24).has_value());
}

}  // namespace
}  // namespace fips::sim
