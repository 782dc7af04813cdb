// SPDX-License-Identifier: MIT
// Route classification of transit forwards (src/proto/routing/core.rs). Runs
// in fips-router.
#include "router/routing/route-class.h"

#include <algorithm>

namespace fips::router::routing {

namespace {

// addr appears in coords' path after its own entry.
bool hasAncestor(const stp::Coordinates& coords, const NodeAddr& addr) {
  const auto& path = coords.path();
  return path.size() > 1 && std::find(path.begin() + 1, path.end(), addr) != path.end();
}

}  // namespace

const char* toString(RouteClass routeClass) {
  switch (routeClass) {
    case RouteClass::TREE_UP:
      return "tree_up";
    case RouteClass::TREE_DOWN:
      return "tree_down";
    case RouteClass::TREE_DOWN_CROSS:
      return "tree_down_cross";
    case RouteClass::CROSSLINK_DESCEND:
      return "crosslink_descend";
    case RouteClass::CROSSLINK_ASCEND:
      return "crosslink_ascend";
    case RouteClass::DIRECT_PEER:
      return "direct_peer";
  }
  return "unknown";
}

RouteClass classifyForward(const NodeAddr& dest, const NodeAddr& chosenPeer,
                           const NodeAddr& selfAddr, const stp::Coordinates& selfCoords,
                           const stp::Coordinates* destCoords, const stp::Coordinates* peerCoords) {
  if (chosenPeer == dest) return RouteClass::DIRECT_PEER;
  if (hasAncestor(selfCoords, chosenPeer)) return RouteClass::TREE_UP;
  const bool destBelowPeer = destCoords != nullptr && hasAncestor(*destCoords, chosenPeer);
  if (peerCoords != nullptr && hasAncestor(*peerCoords, selfAddr)) {
    return destBelowPeer ? RouteClass::TREE_DOWN : RouteClass::TREE_DOWN_CROSS;
  }
  return destBelowPeer ? RouteClass::CROSSLINK_DESCEND : RouteClass::CROSSLINK_ASCEND;
}

}  // namespace fips::router::routing
