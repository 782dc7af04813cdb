// SPDX-License-Identifier: MIT
// The random geometric mesh of a given mean degree, made connected (see
// topology.h). Candidate pairs come from a grid of cells as wide as the
// search radius, so a 10,000-node mesh does not compare every pair.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>

#include "tests/sim/sim-random.h"
#include "tests/sim/topology.h"

namespace fips::sim {

namespace {

struct Point {
  double x = 0;
  double y = 0;
};

double distance2(const Point& a, const Point& b) {
  const double dx = a.x - b.x;
  const double dy = a.y - b.y;
  return dx * dx + dy * dy;
}

using Pair = std::tuple<double, size_t, size_t>;  // squared distance, a < b

// Every pair closer than radius.
std::vector<Pair> pairsWithin(const std::vector<Point>& at, double radius) {
  const auto cells = static_cast<size_t>(std::max(1.0, std::floor(1.0 / radius)));
  const auto cellOf = [cells](double v) {
    return std::min(cells - 1, static_cast<size_t>(v * static_cast<double>(cells)));
  };
  std::vector<std::vector<size_t>> grid(cells * cells);
  for (size_t i = 0; i < at.size(); ++i)
    grid[cellOf(at[i].y) * cells + cellOf(at[i].x)].push_back(i);
  std::vector<Pair> out;
  for (size_t i = 0; i < at.size(); ++i) {
    const size_t cx = cellOf(at[i].x);
    const size_t cy = cellOf(at[i].y);
    for (size_t y = cy == 0 ? 0 : cy - 1; y <= std::min(cells - 1, cy + 1); ++y) {
      for (size_t x = cx == 0 ? 0 : cx - 1; x <= std::min(cells - 1, cx + 1); ++x) {
        for (size_t j : grid[y * cells + x]) {
          const double d2 = distance2(at[i], at[j]);
          if (j > i && d2 < radius * radius) out.emplace_back(d2, i, j);
        }
      }
    }
  }
  return out;
}

// Joins each component but the largest to a node outside it by the
// shortest such pair; repeats until connected. The number of links added.
size_t bridge(Topology& t, const std::vector<Point>& at) {
  size_t added = 0;
  for (auto comp = t.components();; comp = t.components()) {
    std::vector<size_t> size(t.nodes, 0);
    for (size_t c : comp) ++size[c];
    const size_t largest =
        static_cast<size_t>(std::max_element(size.begin(), size.end()) - size.begin());
    bool joined = false;
    for (size_t c = 0; c < t.nodes; ++c) {
      if (size[c] == 0 || c == largest) continue;
      Pair best{INFINITY, 0, 0};
      for (size_t i = 0; i < t.nodes; ++i) {
        if (comp[i] != c) continue;
        for (size_t j = 0; j < t.nodes; ++j) {
          if (comp[j] == c) continue;
          const Pair p{distance2(at[i], at[j]), std::min(i, j), std::max(i, j)};
          best = std::min(best, p);
        }
      }
      t.edges.emplace_back(std::get<1>(best), std::get<2>(best));
      ++added;
      joined = true;
    }
    if (!joined) return added;
    // Two small components may have picked each other: drop the duplicate.
    std::sort(t.edges.begin(), t.edges.end());
    const auto dup = std::unique(t.edges.begin(), t.edges.end());
    added -= static_cast<size_t>(t.edges.end() - dup);
    t.edges.erase(dup, t.edges.end());
  }
}

}  // namespace

GeometricMesh randomGeometricDegree(size_t n, double meanDegree, uint64_t seed) {
  SimRandom rnd(seed);
  std::vector<Point> at(n);
  for (auto& p : at) {
    p.x = rnd.real();
    p.y = rnd.real();
  }
  const auto want = static_cast<size_t>(std::llround(static_cast<double>(n) * meanDegree / 2));
  // Start from 1.5 × the radius that gives the mean degree without edge
  // effects; widen until there are enough candidate pairs.
  double radius = 1.5 * std::sqrt(meanDegree / (std::numbers::pi * static_cast<double>(n)));
  std::vector<Pair> pairs = pairsWithin(at, radius);
  while (pairs.size() < want && radius < 2) {
    radius *= 1.5;
    pairs = pairsWithin(at, radius);
  }
  const size_t keep = std::min(want, pairs.size());
  std::partial_sort(pairs.begin(), pairs.begin() + static_cast<std::ptrdiff_t>(keep), pairs.end());
  GeometricMesh mesh;
  mesh.topology.nodes = n;
  for (size_t k = 0; k < keep; ++k) {
    mesh.topology.edges.emplace_back(std::get<1>(pairs[k]), std::get<2>(pairs[k]));
  }
  mesh.radius = keep ? std::sqrt(std::get<0>(pairs[keep - 1])) : 0;
  mesh.bridges = bridge(mesh.topology, at);
  std::sort(mesh.topology.edges.begin(), mesh.topology.edges.end());
  return mesh;
}

}  // namespace fips::sim
