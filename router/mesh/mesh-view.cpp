// SPDX-License-Identifier: MIT
// MeshNode as the routing::MeshView its lookup and next-hop code read, and
// next-hop selection (spec 03 §4, §6). Runs in fips-router; peer
// coordinates and filters came from peers but were validated on receipt.
#include "router/mesh/mesh-node.h"

namespace fips::router::mesh {

void MeshNode::refreshView() {
  peerViews_.clear();
  for (const auto& peer : tree_.peers()) {
    routing::PeerView view;
    view.addr = peer;
    view.coords = tree_.peerCoordinates(peer);
    view.sendReady = true;  // the tree only knows peers whose link is up
    view.treePeer = tree_.isTreePeer(peer);
    // The link's probed path MTU (RFC 8899) is what path_mtu folds and
    // sessions size for; frames up to the transport MTU still go (the
    // underlay fragments them), larger ones get MtuExceeded (spec 04 §6).
    view.linkMtu = linkMtuOf(peer);
    view.hardMtu = transportMtu_;
    // Measured link cost; 1.0 while unmeasured (spec 02 §9.3).
    if (const auto cost = costs_.find(peer); cost != costs_.end()) view.linkCost = cost->second;
    peerViews_.push_back(view);
  }
}

bool MeshNode::mayReach(const routing::PeerView& peer, const identity::NodeAddr& dest) const {
  return bloom_.peerContains(peer.addr, dest);
}

MeshRoute MeshNode::route(const identity::NodeAddr& dest) {
  refreshView();
  const routing::NextHop hop = routing::findNextHop(*this, coords_, dest, clock_.nowMs());
  MeshRoute out{hop.kind, hop.rule, std::nullopt};
  if (hop.peer) out.peer = hop.peer->addr;
  return out;
}

}  // namespace fips::router::mesh
