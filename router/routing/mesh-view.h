// SPDX-License-Identifier: MIT
// MeshView: the read-only picture of this node and its peers that next-hop
// selection, forwarding and lookup consume, filled by the caller from its
// link, spanning-tree and bloom-filter state (FIPS spec 03 §1, §4, §6).
// Keeping it an interface keeps these libraries free of the tree and bloom
// code. Runs in fips-router; the values are the node's own state (trusted),
// though peer coordinates and filters originally came from peers.
#pragma once

#include <cstdint>
#include <span>

#include "router/stp/coordinates.h"

namespace fips::router::routing {

using identity::NodeAddr;

// One active peer (a link that completed its handshake).
struct PeerView {
  NodeAddr addr;
  // The peer's tree coordinates from its latest TreeAnnounce; nullptr until
  // one arrived. Must stay valid for the duration of the call it is read in.
  const stp::Coordinates* coords = nullptr;
  bool sendReady = false;  // the link can carry a frame now
  // Parent or child in the spanning tree (spec 03 §1.1 is_tree_peer).
  bool treePeer = false;
  // Lower is better; 1.0 when unmeasured (spec 02 §9.3 link_cost).
  double linkCost = 1.0;
  // The link's transport MTU in bytes (whole FMP packet); 0xFFFF if unknown.
  uint16_t linkMtu = UINT16_MAX;
  // The largest frame the link carries at all (bytes; its transport MTU),
  // when above linkMtu: frames between the two go out with underlay
  // fragmentation allowed. 0: linkMtu is also the hard limit.
  uint16_t hardMtu = 0;
};

// Implemented by the caller (the mesh node), read during one call only.
class MeshView {
 public:
  virtual ~MeshView() = default;
  virtual const NodeAddr& selfAddr() const = 0;
  // Our current tree coordinates (self → root); a lone node is its own root.
  virtual const stp::Coordinates& selfCoords() const = 0;
  // Every active peer, in any order, each address once.
  virtual std::span<const PeerView> peers() const = 0;
  // True if peer's latest inbound bloom filter contains dest (spec 03 §4);
  // false while the peer has sent none.
  virtual bool mayReach(const PeerView& peer, const NodeAddr& dest) const = 0;
};

// The peer with this address, or nullptr.
inline const PeerView* findPeer(const MeshView& view, const NodeAddr& addr) {
  for (const PeerView& peer : view.peers()) {
    if (peer.addr == addr) return &peer;
  }
  return nullptr;
}

}  // namespace fips::router::routing
