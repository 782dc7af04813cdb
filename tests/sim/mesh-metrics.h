// SPDX-License-Identifier: MIT
// What the simulator measures on a running mesh: whether the spanning tree
// is consistent (one root per reachable component, the smallest address in
// it, every parent an active peer whose coordinates extend ours), and tree
// figures (roots, depth). Test code only.
#pragma once

#include <cstddef>

#include "tests/sim/simulator.h"

namespace fips::sim {

struct TreeStats {
  size_t roots = 0;  // distinct roots among running nodes
  size_t maxDepth = 0;
  double meanDepth = 0;
};

// True if, for every running node: its root is the smallest node_addr of its
// component of usable links, and unless it is that root, its parent is an
// active peer and its coordinates are [self] followed by the parent's.
bool treeConsistent(Simulator& sim);
TreeStats treeStats(Simulator& sim);

}  // namespace fips::sim
