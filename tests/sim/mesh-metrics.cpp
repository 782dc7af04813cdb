// SPDX-License-Identifier: MIT
// Tree consistency and figures over a simulated mesh (see mesh-metrics.h).
#include "tests/sim/mesh-metrics.h"

#include <algorithm>
#include <map>
#include <set>

namespace fips::sim {

namespace {

// Component id per node over usable links between running nodes.
std::vector<size_t> components(Simulator& sim) {
  return sim.net.usable(sim.size()).components([&](size_t i) { return sim.node(i).running(); });
}

bool parentConsistent(Simulator& sim, const SimNode& n) {
  const auto& tree = n.core->tree();
  const auto parent = tree.parent();
  if (!parent) return true;
  const size_t p = sim.indexOfAddr(*parent);
  if (p >= sim.size() || !sim.node(p).running()) return false;
  const auto peers = n.core->snapshot().peers;
  if (std::none_of(peers.begin(), peers.end(), [&](const auto& i) { return i.addr == *parent; }))
    return false;
  const auto& mine = tree.coordinates().path();
  const auto& theirs = sim.node(p).core->tree().coordinates().path();
  return mine.size() == theirs.size() + 1 &&
         std::equal(theirs.begin(), theirs.end(), mine.begin() + 1);
}

}  // namespace

bool treeConsistent(Simulator& sim) {
  const auto comp = components(sim);
  std::map<size_t, identity::NodeAddr> smallest;
  for (size_t i = 0; i < sim.size(); ++i) {
    if (!sim.node(i).running()) continue;
    auto [it, fresh] = smallest.emplace(comp[i], sim.node(i).nodeAddr);
    if (!fresh) it->second = std::min(it->second, sim.node(i).nodeAddr);
  }
  for (size_t i = 0; i < sim.size(); ++i) {
    const SimNode& n = sim.node(i);
    if (!n.running()) continue;
    if (n.core->tree().root() != smallest[comp[i]]) return false;
    if (!parentConsistent(sim, n)) return false;
  }
  return true;
}

TreeStats treeStats(Simulator& sim) {
  TreeStats stats;
  std::set<identity::NodeAddr> roots;
  size_t running = 0;
  double depthSum = 0;
  for (size_t i = 0; i < sim.size(); ++i) {
    const SimNode& n = sim.node(i);
    if (!n.running()) continue;
    ++running;
    roots.insert(n.core->tree().root());
    const size_t depth = n.core->tree().coordinates().depth();
    stats.maxDepth = std::max(stats.maxDepth, depth);
    depthSum += static_cast<double>(depth);
  }
  stats.roots = roots.size();
  stats.meanDepth = running ? depthSum / static_cast<double>(running) : 0;
  return stats;
}

uint64_t parentSwitches(Simulator& sim) {
  uint64_t total = 0;
  for (size_t i = 0; i < sim.size(); ++i) {
    if (sim.node(i).running()) total += sim.node(i).core->tree().counters().parentSwitches;
  }
  return total;
}

std::optional<uint64_t> settle(Simulator& sim, uint64_t quietMs, uint64_t maxMs) {
  constexpr uint64_t STEP_MS = 10'000;
  const uint64_t start = sim.events.nowMs();
  uint64_t lastChange = start;
  uint64_t seen = parentSwitches(sim);
  while (sim.events.nowMs() - lastChange < quietMs) {
    if (sim.events.nowMs() - start >= maxMs) return std::nullopt;
    sim.runFor(STEP_MS);
    if (const uint64_t now = parentSwitches(sim); now != seen) {
      seen = now;
      lastChange = sim.events.nowMs();
    }
  }
  return lastChange - start;
}

uint64_t controlMessages(Simulator& sim) {
  uint64_t total = 0;
  for (size_t i = 0; i < sim.size(); ++i) {
    if (sim.node(i).running()) total += sim.node(i).core->counters().controlMessagesOut();
  }
  return total;
}

std::optional<size_t> routeHops(Simulator& sim, size_t src, size_t dst) {
  const auto dest = sim.node(dst).nodeAddr;
  const auto* known = sim.node(src).core->cachedCoords(dest);
  if (!known) return std::nullopt;
  const router::stp::Coordinates coords = *known;
  size_t at = src;
  size_t hops = 0;
  while (at != dst) {
    if (hops > 4 * sim.size()) return std::nullopt;
    auto& core = *sim.node(at).core;
    if (at != src) core.learnCoords(dest, coords);
    const auto next = core.route(dest);
    if (next.kind != router::routing::NextHopKind::PEER) return std::nullopt;
    at = sim.indexOfAddr(*next.peer);
    if (at >= sim.size()) return std::nullopt;
    ++hops;
  }
  return hops;
}

RouteStats routeAll(Simulator& sim, size_t rounds, size_t lookupTtl) {
  std::vector<size_t> offsets;
  for (size_t r = 1; r <= std::min(rounds, sim.size() - 1); ++r) offsets.push_back(r);
  return routeAll(sim, offsets, lookupTtl);
}

RouteStats routeAll(Simulator& sim, std::span<const size_t> offsets, size_t lookupTtl) {
  RouteStats stats;
  const auto adj = sim.net.usable(sim.size()).adjacency();
  double stretchSum = 0;
  for (size_t s = 0; s < sim.size(); ++s) {
    if (!sim.node(s).running()) continue;
    const auto shortest = Topology::hops(adj, s);
    for (size_t r : offsets) {
      const size_t d = (s + r) % sim.size();
      if (!sim.node(d).running()) continue;
      ++stats.pairs;
      const auto& from = sim.node(s).core->tree().coordinates();
      const bool beyond = from.distance(sim.node(d).core->tree().coordinates()) > lookupTtl + 1;
      if (beyond) ++stats.beyondTtl;
      if (!sim.node(s).resolved.contains(sim.node(d).nodeAddr)) continue;
      ++stats.resolved;
      if (!beyond) ++stats.resolvedWithinTtl;
      const auto hops = routeHops(sim, s, d);
      if (!hops || shortest[d] == UNREACHABLE) continue;
      ++stats.routed;
      const double stretch = static_cast<double>(*hops) / static_cast<double>(shortest[d]);
      stretchSum += stretch;
      stats.maxStretch = std::max(stats.maxStretch, stretch);
    }
  }
  stats.meanStretch = stats.routed ? stretchSum / static_cast<double>(stats.routed) : 0;
  return stats;
}

}  // namespace fips::sim
