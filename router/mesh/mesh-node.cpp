// SPDX-License-Identifier: MIT
// MeshNode: wiring of the link engine and the mesh components (see
// mesh-node.h). Runs in fips-router; link message bodies come from
// authenticated peers but are their choice, so every component decodes them
// as untrusted input.
#include "router/mesh/mesh-node.h"

namespace fips::router::mesh {

MeshNode::MeshNode(const crypto::Secp256k1Context& ctx, crypto::KeyPair localKey,
                   noise::Epoch epoch, const MeshConfig& config, const link::Clock& clock,
                   crypto::Rng& rng, MeshIo& io)
    : config_(config),
      clock_(clock),
      io_(io),
      links_(ctx, std::move(localKey), epoch, config_.link, clock, rng, *this) {}

bool MeshNode::addStaticPeer(const identity::PublicKey& key,
                             std::vector<link::TransportAddr> addrs) {
  return links_.addStaticPeer(key, std::move(addrs));
}

bool MeshNode::removePeer(const identity::NodeAddr& peer) {
  return links_.removePeer(peer);
}

void MeshNode::onDatagram(const link::TransportAddr& from, std::span<const uint8_t> packet) {
  links_.onDatagram(from, packet);
}

void MeshNode::tick() {
  links_.tick();
}

void MeshNode::shutdown() {
  links_.shutdown();
}

MeshSnapshot MeshNode::snapshot() const {
  return MeshSnapshot{links_.localAddr(), links_.peers()};
}

void MeshNode::sendDatagram(const link::TransportAddr& to, std::span<const uint8_t> packet) {
  io_.sendDatagram(to, packet);
}

void MeshNode::onLinkUp(const link::PeerInfo& peer) {
  io_.onLinkUp(peer);
}

void MeshNode::onLinkDown(const link::PeerInfo& peer, link::LinkDownReason reason) {
  io_.onLinkDown(peer, reason);
}

void MeshNode::onLinkMessage(const identity::NodeAddr&, fmp::LinkMessageType type,
                             std::span<const uint8_t>) {
  ++counters_.messagesIn[static_cast<uint8_t>(type)];
  ++counters_.unhandled;
}

}  // namespace fips::router::mesh
