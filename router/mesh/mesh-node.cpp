// SPDX-License-Identifier: MIT
// MeshNode: wiring of the link engine and the mesh components (see
// mesh-node.h). Runs in fips-router; link message bodies come from
// authenticated peers but are their choice, so every component decodes them
// as untrusted input.
#include "router/mesh/mesh-node.h"

#include <numeric>

namespace fips::router::mesh {

namespace {

// Parent selection without link metrics (spec 03 §3 cold start: every peer
// costs 1.0). MMP link costs (spec 02 §9.3) are not measured yet (#5).
const stp::LinkCosts NO_COSTS{};

}  // namespace

uint64_t MeshCounters::controlMessagesOut() const {
  return std::accumulate(messagesOut.begin(), messagesOut.end(), uint64_t{0});
}

MeshNode::MeshNode(const crypto::Secp256k1Context& ctx, crypto::KeyPair localKey,
                   noise::Epoch epoch, const MeshConfig& config, const link::Clock& clock,
                   const WallClock& wall, crypto::Rng& rng, MeshIo& io)
    : config_(config),
      clock_(clock),
      wall_(wall),
      io_(io),
      key_(localKey.clone()),
      tree_(ctx, key_, config_.tree, rng, now()),
      links_(ctx, std::move(localKey), epoch, config_.link, clock, rng, *this) {}

bool MeshNode::addStaticPeer(const identity::PublicKey& key,
                             std::vector<link::TransportAddr> addrs) {
  const bool added = links_.addStaticPeer(key, std::move(addrs));
  flush();
  return added;
}

bool MeshNode::removePeer(const identity::NodeAddr& peer) {
  const bool known = links_.removePeer(peer);
  flush();
  return known;
}

void MeshNode::onDatagram(const link::TransportAddr& from, std::span<const uint8_t> packet) {
  links_.onDatagram(from, packet);
  flush();
}

void MeshNode::tick() {
  links_.tick();
  apply(tree_.tick(NO_COSTS, now()));
  flush();
}

void MeshNode::shutdown() {
  outbox_.clear();
  links_.shutdown();
}

MeshSnapshot MeshNode::snapshot() const {
  return MeshSnapshot{links_.localAddr(), links_.peers(), tree_.root(), tree_.parent(),
                      tree_.coordinates()};
}

stp::TreeNow MeshNode::now() const {
  return stp::TreeNow{clock_.nowMs(), wall_.unixSecs()};
}

void MeshNode::apply(const stp::TreeOutput& out) {
  if (!out.announceTo.empty()) {
    const std::vector<uint8_t> body = tree_.announceBody();
    for (const auto& peer : out.announceTo) queue(peer, fmp::LinkMessageType::TREE_ANNOUNCE, body);
  }
  if (out.parentChanged || out.coordsChanged) io_.onTreeChanged(tree_.coordinates());
}

void MeshNode::queue(const identity::NodeAddr& peer, fmp::LinkMessageType type,
                     std::span<const uint8_t> body) {
  outbox_.push_back(Outgoing{peer, type, {body.begin(), body.end()}});
}

void MeshNode::flush() {
  // Sending never re-enters the components, but keep the queue stable anyway.
  std::vector<Outgoing> batch;
  batch.swap(outbox_);
  for (const Outgoing& out : batch) {
    if (links_.sendLinkMessage(out.peer, out.type, out.body)) {
      ++counters_.messagesOut[static_cast<uint8_t>(out.type)];
    } else {
      ++counters_.sendFailures;
    }
  }
}

void MeshNode::sendDatagram(const link::TransportAddr& to, std::span<const uint8_t> packet) {
  io_.sendDatagram(to, packet);
}

void MeshNode::onLinkUp(const link::PeerInfo& peer) {
  io_.onLinkUp(peer);
  apply(tree_.addPeer(peer.addr, peer.key.xOnly(), now()));
}

void MeshNode::onLinkDown(const link::PeerInfo& peer, link::LinkDownReason reason) {
  io_.onLinkDown(peer, reason);
  apply(tree_.removePeer(peer.addr, NO_COSTS, now()));
}

void MeshNode::onLinkMessage(const identity::NodeAddr& peer, fmp::LinkMessageType type,
                             std::span<const uint8_t> body) {
  ++counters_.messagesIn[static_cast<uint8_t>(type)];
  switch (type) {
    case fmp::LinkMessageType::TREE_ANNOUNCE:
      apply(tree_.onTreeAnnounce(peer, body, NO_COSTS, now()).out);
      break;
    default:
      ++counters_.unhandled;
      break;
  }
}

}  // namespace fips::router::mesh
