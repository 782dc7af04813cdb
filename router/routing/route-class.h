// SPDX-License-Identifier: MIT
// The route class of a transit forward, read from tree coordinates at the
// forwarding decision: six classes that partition forwarded packets, exposed
// as counters (src/proto/routing/core.rs classify_forward, src/node/metrics.rs
// route_*). Runs in fips-router.
#pragma once

#include <cstddef>
#include <cstdint>

#include "router/stp/coordinates.h"

namespace fips::router::routing {

using identity::NodeAddr;

enum class RouteClass : uint8_t {
  TREE_UP,            // the chosen peer is our ancestor
  TREE_DOWN,          // our descendant, and dest is in its subtree
  TREE_DOWN_CROSS,    // our descendant, dest not in its subtree (child advertised cross-link reach)
  CROSSLINK_DESCEND,  // lateral peer, dest in its subtree
  CROSSLINK_ASCEND,   // lateral peer, dest not in its subtree (up and over)
  DIRECT_PEER,        // the chosen peer is dest itself
};

constexpr size_t ROUTE_CLASS_COUNT = 6;

// Stable name, as the reference's stats spell it ("tree_down_cross").
const char* toString(RouteClass routeClass);

// Classifies a forward to chosenPeer for dest. destCoords / peerCoords may be
// nullptr (unknown); "dest in the peer's subtree" then counts as false.
// "Ancestor of X" means an entry of X's path other than X itself.
RouteClass classifyForward(const NodeAddr& dest, const NodeAddr& chosenPeer,
                           const NodeAddr& selfAddr, const stp::Coordinates& selfCoords,
                           const stp::Coordinates* destCoords, const stp::Coordinates* peerCoords);

}  // namespace fips::router::routing
