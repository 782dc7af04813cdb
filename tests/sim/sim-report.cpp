// SPDX-License-Identifier: MIT
// sim-report: the mesh simulator's figures (issue #5) for each topology
// family at 100 nodes (or the size given as the first argument): time to
// one root and to a settled tree, tree depth, all-pairs lookup success,
// path stretch (routed hops / shortest hops) and control messages per node
// per second, in virtual time, with the wall time each run took; then the
// random geometric mesh again over lossy, jittery links. Seeded, so
// every run prints the same figures (but the wall times). Fails if a mesh
// never reaches one root or a lookup within the 64-hop TTL fails. Test code
// only.
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "tests/sim/scenario.h"

int main(int argc, char** argv) {
  using namespace fips::sim;
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 100;
  if (n < 4 || n > 1000) {
    std::cerr << "usage: sim-report [nodes 4..1000]\n";
    return 2;
  }
  const uint64_t seed = 7;
  const LinkParams params{10, 5, 0.0};
  size_t side = 1;
  while (side * side < n) ++side;
  const Topology rgg = firstConnected(seed, [n](uint64_t s) {
    return randomGeometric(n, 0.18 * std::sqrt(100.0 / static_cast<double>(n)), s);
  });
  struct Row {
    const char* name;
    Topology topology;
    LinkParams params;
    bool gate;  // a failed lookup within the TTL fails the program
    LookupPlan plan;
  };
  const Row rows[] = {
      {"line", line(n), params, true, {}},
      {"ring", ring(n), params, true, {}},
      {"grid", grid(side, (n + side - 1) / side), params, true, {}},
      {"erdos-renyi",
       firstConnected(seed,
                      [n](uint64_t s) { return erdosRenyi(n, 6.0 / static_cast<double>(n), s); }),
       params,
       true,
       {}},
      {"random-geometric", rgg, params, true, {}},
      {"barabasi-albert", barabasiAlbert(n, 2, seed), params, true, {}},
      // Lossy links: 10 rounds (10 n pairs) 17 s apart, past the whole attempt
      // ladder. A lookup can lose every attempt, so this row only reports.
      {"random-geometric, 2% loss, 0-20 ms jitter",
       rgg,
       LinkParams{10, 20, 0.02},
       false,
       {10, 17'000}},
  };
  int failed = 0;
  for (const Row& row : rows) {
    const MeshReport report = measureMesh(row.name, row.topology, row.params, seed, row.plan);
    std::cout << describe(report) << std::endl;
    if (!report.convergedMs ||
        (row.gate && report.routes.resolved + report.routes.beyondTtl < report.routes.pairs))
      ++failed;
  }
  return failed == 0 ? 0 : 1;
}
