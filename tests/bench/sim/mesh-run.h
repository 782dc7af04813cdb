// SPDX-License-Identifier: MIT
// One bench-sim measurement: build a simulated mesh (tests/sim), run it for
// a span of virtual time while timing it, note when every link was up and
// when the spanning tree first became consistent, then look up a sample of
// ordered pairs and walk them hop by hop for stretch. Memory is the heap in
// use (heap-usage.h) before the simulator exists and after each phase.
// Developer tool only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "router/mesh/mesh-config.h"
#include "tests/sim/mesh-metrics.h"
#include "tests/sim/topology.h"
#include "tests/sim/virtual-net.h"

namespace fips::bench {

struct MeshRunPlan {
  uint64_t seed = 1;
  sim::LinkParams link{10, 5, 0.0};
  uint64_t virtualMs = 60'000;       // the timed span, from the nodes' start
  uint64_t convergeMaxMs = 300'000;  // keep checking for a consistent tree this long
  uint64_t checkEveryMs = 10;        // resolution of the links-up and converged times
  size_t lookupRounds = 10;          // round r: every node s looks up s + offset_r (random offsets)
  uint64_t roundMs = 2'500;          // rounds 2.5 s apart
  bool settle =
      false;  // before the lookups, wait for 150 s without a parent switch (as sim-report)
  router::mesh::MeshConfig config;  // every node's (the reference's defaults)
};

struct HeapFigures {
  size_t before = 0;     // heap in use before the simulator was built
  size_t built = 0;      // nodes constructed with their static peers, nothing run
  size_t converged = 0;  // at the first consistent tree
  size_t ran = 0;        // after the timed span
  size_t looked = 0;     // after the lookups and walks
};

struct MeshRunFigures {
  size_t nodes = 0;
  size_t links = 0;
  double buildWallSecs = 0;             // Simulator construction (key pairs, cores, static peers)
  std::optional<uint64_t> linksUpMs;    // virtual ms until every link was up at both ends
  std::optional<uint64_t> convergedMs;  // virtual ms until the first consistent tree
  double runWallSecs = 0;    // wall time the simulator took for virtualMs of virtual time
  double runCpuSecs = 0;     // process CPU time in the same calls
  double checkWallSecs = 0;  // wall time of the bench's own checks in that span
  uint64_t events = 0;       // simulator events run in the timed span
  uint64_t datagrams = 0;    // datagrams sent in the timed span
  sim::TreeStats tree;       // at the end of the timed span
  uint64_t traceHash = 0;    // VirtualNet's hash of every datagram sent until then
  std::optional<uint64_t>
      settledMs;                 // with plan.settle: virtual ms after the span to the last switch
  uint64_t controlMessages = 0;  // tree + filter + lookup messages in the timed span
  sim::RouteStats routes;        // over the sampled pairs
  sim::TreeStats lookupTree;     // when the lookups started
  double lookupWallSecs = 0;
  uint64_t finalTraceHash = 0;  // VirtualNet's hash after the settling and the lookups
  HeapFigures heap;
  size_t peakRss = 0;
};

MeshRunFigures runMesh(const sim::Topology& topology, const MeshRunPlan& plan);
// Heap in use per node for n nodes without any link (built, one virtual
// second run): a node's own state plus the simulator's SimNode around it.
double heapPerIsolatedNode(size_t n, const MeshRunPlan& plan);

}  // namespace fips::bench
