// SPDX-License-Identifier: MIT
// The spanning tree through the simulator (issue #5, spec 03 §1-§3): many
// MeshNodes converge to one root with consistent coordinates; a cut tree
// link is routed around within the link dead timeout plus a few announces;
// a partition yields one root per side and healing one again; a node that
// restarts with a new identity is absorbed. Test code only.
#include <doctest/doctest.h>

#include "tests/sim/mesh-metrics.h"
#include "tests/sim/simulator.h"
#include "tests/sim/topology.h"

namespace fips::sim {
namespace {

// The reference's timers at their defaults: link dead after 30 s without a
// frame (heartbeats every 10 s), then a few 500 ms-rate-limited announces.
constexpr uint64_t DEAD_MS = 30'000;
constexpr uint64_t REROUTE_BUDGET_MS = DEAD_MS + 10'000;

Topology rgg100(uint64_t seed) {
  return firstConnected(seed, [](uint64_t s) { return randomGeometric(100, 0.18, s); });
}

TEST_CASE("sim tree: 100-node random geometric mesh converges to one root") {
  Simulator sim(rgg100(11), LinkParams{10, 5, 0.01}, 11);
  const auto took = sim.runUntil(120'000, [&] { return treeConsistent(sim); });
  REQUIRE(took.has_value());
  const TreeStats stats = treeStats(sim);
  CHECK(stats.roots == 1);
  CHECK(stats.maxDepth >= 2);
  MESSAGE("100-node RGG: one root after " << *took << " virtual ms, depth max " << stats.maxDepth
                                          << " mean " << stats.meanDepth);
  sim.runFor(120'000);  // stays converged through periodic re-announces
  CHECK(treeConsistent(sim));
}

TEST_CASE("sim tree: cutting a tree link reroutes within the link dead timeout") {
  Simulator sim(grid(6, 6), LinkParams{5, 2, 0.0}, 21);
  REQUIRE(sim.runUntil(60'000, [&] { return treeConsistent(sim); }));
  sim.runFor(5'000);
  // The deepest node's link to its parent.
  size_t child = 0;
  for (size_t i = 0; i < sim.size(); ++i) {
    if (sim.node(i).core->tree().coordinates().depth() >
        sim.node(child).core->tree().coordinates().depth())
      child = i;
  }
  const size_t parent = sim.indexOfAddr(*sim.node(child).core->tree().parent());
  REQUIRE(parent < sim.size());
  sim.net.setLinkUp(child, parent, false);
  const auto took = sim.runUntil(REROUTE_BUDGET_MS, [&] {
    return treeConsistent(sim) &&
           sim.node(child).core->tree().parent() != std::optional{sim.node(parent).nodeAddr};
  });
  REQUIRE(took.has_value());
  MESSAGE("tree link cut: rerouted after " << *took << " virtual ms");
}

TEST_CASE("sim tree: a partition yields two roots, healing one") {
  Simulator sim(grid(8, 8), LinkParams{5, 2, 0.0}, 31);
  REQUIRE(sim.runUntil(60'000, [&] { return treeConsistent(sim); }));
  std::vector<uint32_t> side(sim.size());
  for (size_t i = 0; i < sim.size(); ++i) side[i] = (i % 8) < 4 ? 0 : 1;
  sim.net.setPartition(side);
  const auto split = sim.runUntil(REROUTE_BUDGET_MS + 30'000,
                                  [&] { return treeConsistent(sim) && treeStats(sim).roots == 2; });
  REQUIRE(split.has_value());
  sim.net.setPartition({});
  const auto healed = sim.runUntil(600'000, [&] {
    return sim.linksMatchNet() && treeConsistent(sim) && treeStats(sim).roots == 1;
  });
  REQUIRE(healed.has_value());
  MESSAGE("partition: two roots after " << *split << " virtual ms; healed to one root after "
                                        << *healed << " virtual ms (redial backoff included)");
}

TEST_CASE("sim tree: a node restarting with a new identity is absorbed") {
  Simulator sim(rgg100(41), LinkParams{10, 5, 0.0}, 41);
  REQUIRE(sim.runUntil(120'000, [&] { return treeConsistent(sim); }));
  // Restart the root itself (the hardest case: its address leaves the mesh),
  // then an ordinary node.
  const size_t root = sim.indexOfAddr(sim.node(0).core->tree().root());
  REQUIRE(root < sim.size());
  for (size_t victim : {root, (root + 50) % sim.size()}) {
    const auto old = sim.node(victim).nodeAddr;
    sim.start(victim, true);
    CHECK(sim.node(victim).nodeAddr != old);
    const auto took = sim.runUntil(300'000, [&] { return treeConsistent(sim); });
    REQUIRE(took.has_value());
    MESSAGE("restart with a new identity: absorbed after " << *took << " virtual ms");
  }
}

}  // namespace
}  // namespace fips::sim
