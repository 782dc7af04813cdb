// SPDX-License-Identifier: MIT
// Topologies for the mesh simulator: who has a link to whom. Generators for
// line, ring, grid, Erdős–Rényi G(n,p), random geometric (unit square,
// radius) and Barabási–Albert (preferential attachment), each deterministic
// from its seed, plus connectivity and shortest-hop queries. Test code only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

namespace fips::sim {

constexpr size_t UNREACHABLE = std::numeric_limits<size_t>::max();

struct Topology {
  size_t nodes = 0;
  std::vector<std::pair<size_t, size_t>> edges;  // undirected, a < b, no duplicates

  // Neighbour lists, built from edges.
  std::vector<std::vector<size_t>> adjacency() const;
  // Hop counts from src (breadth-first); UNREACHABLE where there is no path.
  std::vector<size_t> hops(size_t src) const;
  // The same over a prebuilt adjacency() (for many sources on a large mesh).
  static std::vector<size_t> hops(const std::vector<std::vector<size_t>>& adjacency, size_t src);
  bool connected() const;
  // Component label per node (the smallest index in its component) over the
  // nodes `keep` accepts (all when empty); UNREACHABLE for the others.
  std::vector<size_t> components(const std::function<bool(size_t)>& keep = {}) const;
  size_t degreeMax() const;
};

Topology line(size_t n);
Topology ring(size_t n);
Topology grid(size_t width, size_t height);
// Each pair linked with probability p.
Topology erdosRenyi(size_t n, double p, uint64_t seed);
// n points uniform in the unit square, linked when closer than radius.
Topology randomGeometric(size_t n, double radius, uint64_t seed);
// n points uniform in the unit square; the n × meanDegree / 2 closest pairs
// are linked (a random geometric graph whose radius is chosen for the mean
// degree), then each component but the largest is joined to the rest by its
// shortest outside pair until the mesh is connected. bridges: those added
// links.
struct GeometricMesh {
  Topology topology;
  double radius = 0;   // length of the longest of the closest pairs
  size_t bridges = 0;  // links added to connect the components
};
GeometricMesh randomGeometricDegree(size_t n, double meanDegree, uint64_t seed);
// The reference's construction for its 100-node convergence test
// (generate_random_edges, src/node/tests/spanning_tree.rs): a random
// spanning tree grown from node 0, then random extra edges until
// targetEdges (at most 10 × targetEdges draws). Same construction, not the
// same graph: the draws come from SimRandom, not Rust's StdRng.
Topology randomSpanningPlus(size_t n, size_t targetEdges, uint64_t seed);
// Starts from a clique of m + 1 nodes; each new node links to m distinct
// existing nodes chosen with probability proportional to their degree.
Topology barabasiAlbert(size_t n, size_t m, uint64_t seed);
// Calls make(seed), make(seed + 1), ... until the result is connected (at
// most 1000 tries; the last result otherwise).
template <typename Make>
Topology firstConnected(uint64_t seed, Make make) {
  Topology t = make(seed);
  for (uint64_t i = 1; i < 1000 && !t.connected(); ++i) t = make(seed + i);
  return t;
}

}  // namespace fips::sim
