// SPDX-License-Identifier: MIT
// One bench-sim measurement (see mesh-run.h).
#include "tests/bench/sim/mesh-run.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <set>
#include <vector>

#include "tests/bench/sim/heap-usage.h"
#include "tests/sim/simulator.h"

namespace fips::bench {

namespace {

using WallClock = std::chrono::steady_clock;
constexpr uint64_t LADDER_MS = 16'000;  // the lookup attempt ladder 1 + 2 + 4 + 8 s, and a margin
constexpr uint64_t SETTLE_QUIET_MS = 150'000;  // > hold-down (30 s) + flap dampening (120 s)
constexpr uint64_t SETTLE_MAX_MS = 900'000;

double secondsSince(WallClock::time_point start) {
  return std::chrono::duration<double>(WallClock::now() - start).count();
}

// Distinct offsets in 1..n-1: all of them when rounds >= n - 1, else a
// random draw from the seed.
std::vector<size_t> lookupOffsets(size_t n, size_t rounds, uint64_t seed) {
  std::vector<size_t> offsets;
  if (n < 2) return offsets;
  if (rounds >= n - 1) {
    for (size_t r = 1; r < n; ++r) offsets.push_back(r);
    return offsets;
  }
  sim::SimRandom rnd(seed ^ 0x100c0ffULL);
  std::set<size_t> seen;
  while (offsets.size() < rounds) {
    const size_t r = 1 + rnd.below(n - 1);
    if (seen.insert(r).second) offsets.push_back(r);
  }
  return offsets;
}

// Runs the mesh from its start to plan.virtualMs, checking every
// checkEveryMs (and on past it, checking only, until convergeMaxMs) for the
// moment every link is up and the moment the tree is first consistent. The
// wall time of the simulator and of the checks are kept apart.
void timedSpan(sim::Simulator& sim, const MeshRunPlan& plan, MeshRunFigures& out) {
  const uint64_t start = sim.events.nowMs();
  const uint64_t events0 = sim.events.eventsRun();
  const uint64_t sent0 = sim.net.counters().sent;
  const uint64_t control0 = sim::controlMessages(sim);
  uint64_t t = 0;
  const auto advance = [&](uint64_t to) {
    const auto wall = WallClock::now();
    const double cpu = cpuSeconds();
    sim.events.runUntil(start + to);
    if (to <= plan.virtualMs) {
      out.runWallSecs += secondsSince(wall);
      out.runCpuSecs += cpuSeconds() - cpu;
    }
    t = to;
    if (t != plan.virtualMs) return;
    out.events = sim.events.eventsRun() - events0;
    out.datagrams = sim.net.counters().sent - sent0;
    out.controlMessages = sim::controlMessages(sim) - control0;
    out.tree = sim::treeStats(sim);
    out.traceHash = sim.net.traceHash();
    out.heap.ran = heapInUse();
  };
  while ((!out.linksUpMs || !out.convergedMs) && t < std::max(plan.convergeMaxMs, plan.virtualMs)) {
    const uint64_t next = t + plan.checkEveryMs;
    advance(t < plan.virtualMs ? std::min(next, plan.virtualMs) : next);
    const auto check = WallClock::now();
    if (!out.linksUpMs && sim.linksMatchNet()) out.linksUpMs = t;
    if (!out.convergedMs && sim::treeConsistent(sim)) {
      out.convergedMs = t;
      out.heap.converged = heapInUse();
    }
    out.checkWallSecs += secondsSince(check);
  }
  if (t < plan.virtualMs) advance(plan.virtualMs);
}

// Round r: every node s looks up s + offsets[r] (one seeker per target per
// round), learning that target's key first as DNS or a configured peer would.
void sampledLookups(sim::Simulator& sim, const std::vector<size_t>& offsets, uint64_t roundMs) {
  for (size_t r : offsets) {
    for (size_t s = 0; s < sim.size(); ++s) {
      auto& target = sim.node((s + r) % sim.size());
      sim.node(s).core->learnIdentity(target.publicKey);
      sim.node(s).core->lookup(target.nodeAddr);
    }
    sim.runFor(roundMs);
  }
  sim.runFor(LADDER_MS);
}

}  // namespace

MeshRunFigures runMesh(const sim::Topology& topology, const MeshRunPlan& plan) {
  MeshRunFigures out;
  out.nodes = topology.nodes;
  out.links = topology.edges.size();
  out.heap.before = heapInUse();
  const auto build = WallClock::now();
  auto sim = std::make_unique<sim::Simulator>(topology, plan.link, plan.seed, plan.config);
  out.buildWallSecs = secondsSince(build);
  out.heap.built = heapInUse();
  timedSpan(*sim, plan, out);
  if (plan.settle) out.settledMs = sim::settle(*sim, SETTLE_QUIET_MS, SETTLE_MAX_MS);
  out.lookupTree = sim::treeStats(*sim);
  const auto lookups = WallClock::now();
  const auto offsets = lookupOffsets(sim->size(), plan.lookupRounds, plan.seed);
  sampledLookups(*sim, offsets, plan.roundMs);
  out.routes = sim::routeAll(*sim, offsets, plan.config.lookup.ttl);
  out.lookupWallSecs = secondsSince(lookups);
  out.finalTraceHash = sim->net.traceHash();
  out.heap.looked = heapInUse();
  out.peakRss = peakRss();
  return out;
}

double heapPerIsolatedNode(size_t n, const MeshRunPlan& plan) {
  // A throwaway pair first: what the process sets up once on first use
  // (OpenSSL's fetched algorithms and contexts, about 300 B per node at
  // 1,000 nodes) is then in the baseline instead of charged to these nodes.
  {
    sim::Simulator warm(sim::Topology{2, {{0, 1}}}, plan.link, plan.seed, plan.config);
    warm.runFor(1'000);
  }
  const size_t before = heapInUse();
  sim::Simulator sim(sim::Topology{n, {}}, plan.link, plan.seed, plan.config);
  sim.runFor(1'000);
  return static_cast<double>(heapInUse() - before) / static_cast<double>(n);
}

}  // namespace fips::bench
