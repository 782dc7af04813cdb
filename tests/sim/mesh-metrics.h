// SPDX-License-Identifier: MIT
// What the simulator measures on a running mesh: whether the spanning tree
// is consistent (one root per reachable component, the smallest address in
// it, every parent an active peer whose coordinates extend ours), and tree
// figures (roots, depth). Test code only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

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

// Parent switches so far, all running nodes.
uint64_t parentSwitches(Simulator& sim);
// Runs until no node has switched parent for quietMs (checked every 10 s),
// at most maxMs; the virtual ms from the call to the last switch, or nullopt
// if the tree never went quiet.
std::optional<uint64_t> settle(Simulator& sim, uint64_t quietMs, uint64_t maxMs);

// Link messages the mesh components sent (tree, bloom, lookup), all nodes.
uint64_t controlMessages(Simulator& sim);

struct RouteStats {
  size_t pairs = 0;     // ordered pairs of running nodes
  size_t resolved = 0;  // pairs whose lookup was answered with a verified proof
  size_t routed = 0;    // resolved pairs whose hop-by-hop walk reached the destination
  // Pairs farther apart in the tree than a request of the lookup TTL goes:
  // TTL + 1 hops (the node at hop TTL + 1 gets it with TTL 0 and answers if
  // it is the target; requests follow tree links).
  size_t beyondTtl = 0;
  size_t resolvedWithinTtl = 0;  // resolved pairs not beyond the TTL
  double meanStretch = 0;        // routed hops / shortest hops, over routed pairs
  double maxStretch = 0;
};

// Walks from src to dst with each node's next-hop selection, using the
// coordinates src learned by lookup (each transit node caches them first, as
// session setup does, spec 03 §7); the hop count, or nullopt if a node had
// no route, the walk looped, or src has no coordinates for dst.
std::optional<size_t> routeHops(Simulator& sim, size_t src, size_t dst);
// routeHops for the pairs (s, s + r mod n), r = 1..rounds (every ordered pair
// when rounds >= n - 1) whose lookup resolved, against shortest paths over
// usable links; lookupTtl: the nodes' node.lookup.ttl, for beyondTtl.
RouteStats routeAll(Simulator& sim, size_t rounds = SIZE_MAX, size_t lookupTtl = 64);
// The same for the pairs (s, s + offset mod n), each offset in 1..n-1.
RouteStats routeAll(Simulator& sim, std::span<const size_t> offsets, size_t lookupTtl = 64);

}  // namespace fips::sim
