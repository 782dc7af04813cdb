// SPDX-License-Identifier: MIT
// Tree consistency and figures over a simulated mesh (see mesh-metrics.h).
#include "tests/sim/mesh-metrics.h"

#include <algorithm>
#include <set>

namespace fips::sim {

namespace {

// Component id per node over usable links between running nodes.
std::vector<size_t> components(Simulator& sim) {
  const Topology usable = sim.net.usable(sim.size());
  const auto adj = usable.adjacency();
  std::vector<size_t> comp(sim.size(), UNREACHABLE);
  for (size_t start = 0; start < sim.size(); ++start) {
    if (comp[start] != UNREACHABLE || !sim.node(start).running()) continue;
    std::vector<size_t> todo{start};
    comp[start] = start;
    while (!todo.empty()) {
      const size_t at = todo.back();
      todo.pop_back();
      for (size_t next : adj[at]) {
        if (comp[next] != UNREACHABLE || !sim.node(next).running()) continue;
        comp[next] = start;
        todo.push_back(next);
      }
    }
  }
  return comp;
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
  std::map<size_t, router::identity::NodeAddr> smallest;
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
  std::set<router::identity::NodeAddr> roots;
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

}  // namespace fips::sim
