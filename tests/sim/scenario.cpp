// SPDX-License-Identifier: MIT
// The standard mesh measurement (see scenario.h).
#include "tests/sim/scenario.h"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "tests/sim/simulator.h"

namespace fips::sim {

namespace {

constexpr uint64_t CONVERGE_MAX_MS = 300'000;
constexpr uint64_t QUIET_MS = 150'000;  // > hold-down (30 s) + flap dampening (120 s)
constexpr uint64_t SETTLE_MAX_MS = 900'000;
constexpr uint64_t STEADY_MS = 60'000;
constexpr uint64_t LADDER_MS = 16'000;  // the attempt ladder 1 + 2 + 4 + 8 s, and a margin

double perNodeSec(uint64_t messages, uint64_t ms, size_t nodes) {
  return static_cast<double>(messages) * 1000.0 / static_cast<double>(ms) /
         static_cast<double>(nodes);
}

void allPairsLookups(Simulator& sim, const LookupPlan& plan) {
  for (size_t i = 0; i < sim.size(); ++i) {
    for (size_t j = 0; j < sim.size(); ++j) sim.node(i).core->learnIdentity(sim.node(j).publicKey);
  }
  // Round r: node s looks up node s + r, so each target has one seeker per round.
  for (size_t r = 1; r <= std::min(plan.rounds, sim.size() - 1); ++r) {
    for (size_t s = 0; s < sim.size(); ++s) {
      sim.node(s).core->lookup(sim.node((s + r) % sim.size()).nodeAddr);
    }
    sim.runFor(plan.roundMs);
  }
  sim.runFor(LADDER_MS);
}

}  // namespace

MeshReport measureMesh(const std::string& name, const Topology& topology, const LinkParams& params,
                       uint64_t seed, const LookupPlan& plan) {
  const auto wall = std::chrono::steady_clock::now();
  MeshReport report;
  report.name = name;
  report.nodes = topology.nodes;
  report.links = topology.edges.size();
  Simulator sim(topology, params, seed);
  report.convergedMs = sim.runUntil(CONVERGE_MAX_MS, [&] { return treeConsistent(sim); });
  if (report.convergedMs) {
    // A first consistent tree is not yet the final one: discretionary
    // switches to shallower parents follow once hold-down and flap dampening
    // allow. Lookups wait for it, so the coordinates they return stay valid
    // while the pairs are walked (re-lookup on PathBroken is #6).
    report.settledMs = settle(sim, QUIET_MS, SETTLE_MAX_MS);
    report.tree = treeStats(sim);
    const uint64_t before = controlMessages(sim);
    sim.runFor(STEADY_MS);
    report.steadyMsgsPerNodeSec = perNodeSec(controlMessages(sim) - before, STEADY_MS, sim.size());
    const uint64_t lookupStart = controlMessages(sim);
    const uint64_t t0 = sim.events.nowMs();
    allPairsLookups(sim, plan);
    report.lookupMsgsPerNodeSec =
        perNodeSec(controlMessages(sim) - lookupStart, sim.events.nowMs() - t0, sim.size());
    report.routes = routeAll(sim, plan.rounds);
  }
  report.wallSecs = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  return report;
}

std::string describe(const MeshReport& r) {
  std::ostringstream out;
  out << r.name << ": " << r.nodes << " nodes, " << r.links << " links; ";
  if (!r.convergedMs) {
    out << "no single root within " << CONVERGE_MAX_MS << " ms";
    return out.str();
  }
  out << "one root after " << *r.convergedMs << " ms, settled "
      << (r.settledMs ? std::to_string(*r.settledMs) + " ms" : std::string("never"))
      << " later; depth max " << r.tree.maxDepth << " mean " << r.tree.meanDepth << "; lookups "
      << r.routes.resolved << "/" << r.routes.pairs << " (" << r.routes.beyondTtl
      << " pairs farther apart in the tree than a TTL-64 lookup goes, 65 hops); routed "
      << r.routes.routed << "/" << r.routes.pairs << "; stretch mean " << r.routes.meanStretch
      << " max " << r.routes.maxStretch << "; control msgs/node/s " << r.steadyMsgsPerNodeSec
      << " steady, " << r.lookupMsgsPerNodeSec << " during lookups; " << r.wallSecs << " s wall";
  return out.str();
}

}  // namespace fips::sim
