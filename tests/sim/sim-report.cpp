// SPDX-License-Identifier: MIT
// sim-report: the mesh simulator's figures (issue #5) for each topology
// family at 100 nodes (or the size given as the first argument): time to
// one root and to a settled tree, tree depth, all-pairs lookup success,
// path stretch (routed hops / shortest hops) and control messages per node
// per second, in virtual time, with the wall time each run took. Seeded, so
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
  const Topology topologies[] = {
      line(n),
      ring(n),
      grid(side, (n + side - 1) / side),
      firstConnected(seed,
                     [n](uint64_t s) { return erdosRenyi(n, 6.0 / static_cast<double>(n), s); }),
      firstConnected(seed,
                     [n](uint64_t s) {
                       return randomGeometric(n, 0.18 * std::sqrt(100.0 / static_cast<double>(n)),
                                              s);
                     }),
      barabasiAlbert(n, 2, seed),
  };
  const char* names[] = {"line",           "ring", "grid", "erdos-renyi", "random-geometric",
                         "barabasi-albert"};
  int failed = 0;
  for (size_t i = 0; i < std::size(topologies); ++i) {
    const MeshReport report = measureMesh(names[i], topologies[i], params, seed);
    std::cout << describe(report) << std::endl;
    if (!report.convergedMs ||
        report.routes.resolved + report.routes.beyondTtl < report.routes.pairs)
      ++failed;
  }
  return failed == 0 ? 0 : 1;
}
