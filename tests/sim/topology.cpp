// SPDX-License-Identifier: MIT
// Topology generators and graph queries of the mesh simulator (see
// topology.h).
#include "tests/sim/topology.h"

#include <algorithm>
#include <deque>
#include <set>

#include "tests/sim/sim-random.h"

namespace fips::sim {

std::vector<std::vector<size_t>> Topology::adjacency() const {
  std::vector<std::vector<size_t>> adj(nodes);
  for (const auto& [a, b] : edges) {
    adj[a].push_back(b);
    adj[b].push_back(a);
  }
  return adj;
}

std::vector<size_t> Topology::hops(size_t src) const {
  return hops(adjacency(), src);
}

std::vector<size_t> Topology::hops(const std::vector<std::vector<size_t>>& adj, size_t src) {
  std::vector<size_t> dist(adj.size(), UNREACHABLE);
  std::deque<size_t> todo{src};
  dist[src] = 0;
  while (!todo.empty()) {
    const size_t at = todo.front();
    todo.pop_front();
    for (size_t next : adj[at]) {
      if (dist[next] != UNREACHABLE) continue;
      dist[next] = dist[at] + 1;
      todo.push_back(next);
    }
  }
  return dist;
}

bool Topology::connected() const {
  if (nodes == 0) return true;
  const auto dist = hops(0);
  return std::none_of(dist.begin(), dist.end(), [](size_t d) { return d == UNREACHABLE; });
}

std::vector<size_t> Topology::components(const std::function<bool(size_t)>& keep) const {
  const auto adj = adjacency();
  const auto kept = [&](size_t i) { return !keep || keep(i); };
  std::vector<size_t> comp(nodes, UNREACHABLE);
  for (size_t start = 0; start < nodes; ++start) {
    if (comp[start] != UNREACHABLE || !kept(start)) continue;
    std::vector<size_t> todo{start};
    comp[start] = start;
    while (!todo.empty()) {
      const size_t at = todo.back();
      todo.pop_back();
      for (size_t next : adj[at]) {
        if (comp[next] != UNREACHABLE || !kept(next)) continue;
        comp[next] = start;
        todo.push_back(next);
      }
    }
  }
  return comp;
}

size_t Topology::degreeMax() const {
  size_t best = 0;
  for (const auto& n : adjacency()) best = std::max(best, n.size());
  return best;
}

namespace {

void link(Topology& t, size_t a, size_t b) {
  t.edges.emplace_back(std::min(a, b), std::max(a, b));
}

}  // namespace

Topology line(size_t n) {
  Topology t{n, {}};
  for (size_t i = 1; i < n; ++i) link(t, i - 1, i);
  return t;
}

Topology ring(size_t n) {
  Topology t = line(n);
  if (n > 2) link(t, 0, n - 1);
  return t;
}

Topology grid(size_t width, size_t height) {
  Topology t{width * height, {}};
  for (size_t y = 0; y < height; ++y) {
    for (size_t x = 0; x < width; ++x) {
      const size_t i = y * width + x;
      if (x + 1 < width) link(t, i, i + 1);
      if (y + 1 < height) link(t, i, i + width);
    }
  }
  return t;
}

Topology erdosRenyi(size_t n, double p, uint64_t seed) {
  SimRandom rnd(seed);
  Topology t{n, {}};
  for (size_t a = 0; a < n; ++a) {
    for (size_t b = a + 1; b < n; ++b) {
      if (rnd.chance(p)) link(t, a, b);
    }
  }
  return t;
}

Topology randomGeometric(size_t n, double radius, uint64_t seed) {
  SimRandom rnd(seed);
  std::vector<std::pair<double, double>> at(n);
  for (auto& [x, y] : at) {
    x = rnd.real();
    y = rnd.real();
  }
  Topology t{n, {}};
  for (size_t a = 0; a < n; ++a) {
    for (size_t b = a + 1; b < n; ++b) {
      const double dx = at[a].first - at[b].first;
      const double dy = at[a].second - at[b].second;
      if (dx * dx + dy * dy < radius * radius) link(t, a, b);
    }
  }
  return t;
}

Topology randomSpanningPlus(size_t n, size_t targetEdges, uint64_t seed) {
  SimRandom rnd(seed);
  Topology t{n, {}};
  if (n == 0) return t;
  std::set<std::pair<size_t, size_t>> linked;
  std::vector<bool> inTree(n, false);
  inTree[0] = true;
  for (size_t count = 1; count < n;) {
    const size_t from = rnd.below(n);
    const size_t to = rnd.below(n);
    if (!inTree[from] || inTree[to]) continue;
    link(t, from, to);
    linked.emplace(std::min(from, to), std::max(from, to));
    inTree[to] = true;
    ++count;
  }
  for (size_t draws = 0; t.edges.size() < targetEdges && draws < 10 * targetEdges; ++draws) {
    const size_t a = rnd.below(n);
    const size_t b = rnd.below(n);
    if (a == b || !linked.emplace(std::min(a, b), std::max(a, b)).second) continue;
    link(t, a, b);
  }
  return t;
}

Topology barabasiAlbert(size_t n, size_t m, uint64_t seed) {
  SimRandom rnd(seed);
  Topology t{n, {}};
  const size_t core = std::min(n, m + 1);
  std::vector<size_t> ends;  // each node once per edge end: degree-weighted draws
  for (size_t a = 0; a < core; ++a) {
    for (size_t b = a + 1; b < core; ++b) {
      link(t, a, b);
      ends.insert(ends.end(), {a, b});
    }
  }
  for (size_t v = core; v < n; ++v) {
    std::set<size_t> targets;
    while (targets.size() < m) targets.insert(ends[rnd.below(ends.size())]);
    for (size_t u : targets) {
      link(t, u, v);
      ends.insert(ends.end(), {u, v});
    }
  }
  return t;
}

}  // namespace fips::sim
