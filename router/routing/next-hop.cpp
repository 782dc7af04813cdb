// SPDX-License-Identifier: MIT
// Next-hop selection (FIPS spec 03 §6). Runs in fips-router.
#include "router/routing/next-hop.h"

namespace fips::router::routing {

namespace {

// Step 4: bloom candidates strictly closer than us, min (cost, distance, addr).
const PeerView* bestBloomCandidate(const MeshView& view, const NodeAddr& dest,
                                   const stp::Coordinates& destCoords) {
  const size_t myDistance = view.selfCoords().distance(destCoords);
  const PeerView* best = nullptr;
  size_t bestDistance = 0;
  for (const PeerView& peer : view.peers()) {
    if (!peer.sendReady || !view.mayReach(peer, dest)) continue;
    const size_t distance =
        peer.coords != nullptr ? peer.coords->distance(destCoords) : stp::DISTANCE_INFINITE;
    if (distance >= myDistance) continue;
    const bool better =
        best == nullptr || peer.linkCost < best->linkCost ||
        (peer.linkCost == best->linkCost &&
         (distance < bestDistance || (distance == bestDistance && peer.addr < best->addr)));
    if (better) {
      best = &peer;
      bestDistance = distance;
    }
  }
  return best;
}

// Step 5: greedy tree routing over every peer with coordinates.
const PeerView* greedyTreeHop(const MeshView& view, const stp::Coordinates& destCoords) {
  const stp::Coordinates& mine = view.selfCoords();
  if (mine.empty() || mine.root() != destCoords.root()) return nullptr;
  const PeerView* best = nullptr;
  size_t bestDistance = 0;
  for (const PeerView& peer : view.peers()) {
    if (peer.coords == nullptr) continue;
    const size_t distance = peer.coords->distance(destCoords);
    if (best == nullptr || distance < bestDistance ||
        (distance == bestDistance && peer.addr < best->addr)) {
      best = &peer;
      bestDistance = distance;
    }
  }
  if (best == nullptr || bestDistance >= mine.distance(destCoords) || !best->sendReady) {
    return nullptr;
  }
  return best;
}

}  // namespace

NextHop findNextHop(const MeshView& view, CoordCache& cache, const NodeAddr& dest, uint64_t nowMs) {
  if (dest == view.selfAddr()) return {.kind = NextHopKind::LOCAL};
  if (const PeerView* direct = findPeer(view, dest); direct != nullptr && direct->sendReady) {
    return {.kind = NextHopKind::PEER, .rule = NextHopRule::DIRECT, .peer = direct};
  }
  const stp::Coordinates* destCoords = cache.getAndTouch(dest, nowMs);
  if (destCoords == nullptr) return {.kind = NextHopKind::COORDS_REQUIRED};
  if (const PeerView* bloom = bestBloomCandidate(view, dest, *destCoords)) {
    return {.kind = NextHopKind::PEER, .rule = NextHopRule::BLOOM, .peer = bloom};
  }
  if (const PeerView* tree = greedyTreeHop(view, *destCoords)) {
    return {.kind = NextHopKind::PEER, .rule = NextHopRule::GREEDY_TREE, .peer = tree};
  }
  return {.kind = NextHopKind::PATH_BROKEN};
}

}  // namespace fips::router::routing
