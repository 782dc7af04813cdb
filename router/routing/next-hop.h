// SPDX-License-Identifier: MIT
// Next-hop selection for a destination NodeAddr (FIPS spec 03 §6;
// src/node/mod.rs find_next_hop, src/proto/routing/core.rs
// select_best_candidate, src/proto/stp/state.rs find_next_hop). Runs in
// fips-router for every forwarded or originated datagram and error signal.
#pragma once

#include <cstdint>

#include "router/routing/coord-cache.h"
#include "router/routing/mesh-view.h"

namespace fips::router::routing {

// What findNextHop decided.
enum class NextHopKind : uint8_t {
  LOCAL,            // dest is this node
  PEER,             // send to NextHop::peer
  COORDS_REQUIRED,  // no route and no cached coordinates for dest
  PATH_BROKEN,      // no route although dest's coordinates are cached
};

// Which rule of spec 03 §6 chose the peer (for tests, logs and stats).
enum class NextHopRule : uint8_t {
  NONE,         // not PEER
  DIRECT,       // dest is a send-ready direct peer (step 2)
  BLOOM,        // bloom candidate strictly closer (step 4)
  GREEDY_TREE,  // greedy tree fallback (step 5)
};

struct NextHop {
  NextHopKind kind = NextHopKind::COORDS_REQUIRED;
  NextHopRule rule = NextHopRule::NONE;
  const PeerView* peer = nullptr;  // set iff kind == PEER; points into view.peers()
};

// Spec 03 §6, in order:
// 1. dest == self → LOCAL.
// 2. dest is a send-ready peer → that peer.
// 3. dest's coordinates from the cache (getAndTouch: refreshes TTL/LRU);
//    none → COORDS_REQUIRED.
// 4. Among send-ready peers whose bloom filter contains dest and whose tree
//    distance to dest is strictly less than ours, the minimum by (link_cost,
//    distance, NodeAddr).
// 5. Else, if our root is dest's root: the peer with coordinates at minimum
//    distance to dest (tie → smaller NodeAddr), used only if strictly closer
//    than us and send-ready.
// 6. Else PATH_BROKEN.
NextHop findNextHop(const MeshView& view, CoordCache& cache, const NodeAddr& dest, uint64_t nowMs);

}  // namespace fips::router::routing
