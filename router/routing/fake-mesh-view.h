// SPDX-License-Identifier: MIT
// FakeMeshView: a MeshView for unit tests, built peer by peer with explicit
// coordinates and bloom-filter contents. Test code only.
#pragma once

#include <deque>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include "router/routing/mesh-view.h"

namespace fips::router::routing::test {

class FakeMeshView final : public MeshView {
 public:
  FakeMeshView(NodeAddr self, stp::Coordinates selfCoords)
      : self_(self), selfCoords_(std::move(selfCoords)) {}

  // Adds a send-ready peer; coords empty = no TreeAnnounce yet. reach = the
  // addresses in its inbound bloom filter. Tweak it later through peer().
  void addPeer(const NodeAddr& addr, stp::Coordinates coords, std::set<NodeAddr> reach = {},
               bool treePeer = false) {
    const stp::Coordinates* c = nullptr;
    if (!coords.empty()) c = &coordStore_.emplace_back(std::move(coords));
    peers_.push_back(PeerView{.addr = addr, .coords = c, .sendReady = true, .treePeer = treePeer});
    filters_[addr] = std::move(reach);
  }
  PeerView& peer(const NodeAddr& addr) {
    for (PeerView& p : peers_) {
      if (p.addr == addr) return p;
    }
    throw std::logic_error("no such fake peer");
  }
  void setSelfCoords(stp::Coordinates coords) { selfCoords_ = std::move(coords); }

  const NodeAddr& selfAddr() const override { return self_; }
  const stp::Coordinates& selfCoords() const override { return selfCoords_; }
  std::span<const PeerView> peers() const override { return peers_; }
  bool mayReach(const PeerView& peer, const NodeAddr& dest) const override {
    const auto it = filters_.find(peer.addr);
    return it != filters_.end() && it->second.contains(dest);
  }

 private:
  NodeAddr self_;
  stp::Coordinates selfCoords_;
  std::deque<stp::Coordinates> coordStore_;  // stable addresses for PeerView::coords
  std::vector<PeerView> peers_;
  std::map<NodeAddr, std::set<NodeAddr>> filters_;
};

}  // namespace fips::router::routing::test
