// SPDX-License-Identifier: MIT
// One FMP node of bench-link (see bench-node.h). Runs in the benchmark's
// node or router processes; datagrams come from the other benchmark node.
#include "tests/bench/link/bench-node.h"

#include <stdexcept>

#include "router/fmp/fmp-constants.h"

namespace fips::bench {

namespace {

using router::fmp::LinkMessageType;

constexpr uint64_t TICK_MS = 1000;  // as the router's default tick interval

}  // namespace

BenchNode::BenchNode(NodeSpec spec, size_t frameBytes, SharedCounters& shared, Output out)
    : dialKey_(spec.dialKey),
      dialAddr_(spec.dialAddr),
      shared_(shared),
      out_(std::move(out)),
      type_(frameBytes == HEARTBEAT_FRAME ? LinkMessageType::HEARTBEAT
                                          : LinkMessageType::SESSION_DATAGRAM) {
  if (frameBytes != HEARTBEAT_FRAME &&
      frameBytes < router::fmp::LINK_OVERHEAD + router::fmp::SESSION_DATAGRAM_HEADER_SIZE - 1) {
    throw std::invalid_argument("frame too small for a SessionDatagram");
  }
  body_.assign(frameBytes - router::fmp::LINK_OVERHEAD, 0x5A);
  router::noise::Epoch epoch{};
  if (!rng_.fill(epoch)) throw std::runtime_error("no randomness for the epoch");
  links_ = std::make_unique<router::link::LinkManager>(ctx_, std::move(spec.key), epoch,
                                                       linkConfig_, clock_, rng_, *this);
  nextTickMs_ = clock_.nowMs() + TICK_MS;
}

void BenchNode::start() {
  if (dialKey_ && !links_->addStaticPeer(*dialKey_, {dialAddr_})) {
    throw std::runtime_error("addStaticPeer refused the peer");
  }
}

void BenchNode::onDatagram(const router::link::TransportAddr& from,
                           std::span<const uint8_t> packet) {
  if (!packet.empty() && (packet[0] & 0x0FU) == 0) ++established_;
  links_->onDatagram(from, packet);
}

size_t BenchNode::sendFrames(size_t n) {
  if (!peer_) return 0;
  size_t done = 0;
  while (done < n && links_->sendLinkMessage(*peer_, type_, body_)) ++done;
  sent_ += done;
  return done;
}

void BenchNode::service() {
  const uint64_t now = clock_.nowMs();
  if (now >= nextTickMs_) {
    links_->tick();

    nextTickMs_ = now + TICK_MS;
    uint64_t rekeys = 0;
    for (const auto& p : links_->peers()) rekeys += p.rekeys;
    if (!dialKey_) shared_.rekeys.store(rekeys, std::memory_order_relaxed);
  }
  if (dialKey_) {
    shared_.sent.store(sent_, std::memory_order_relaxed);
  } else {
    // A Heartbeat is consumed inside the engine: count the established
    // frames that were not dropped (authenticated, fresh) instead.
    const uint64_t delivered = type_ == LinkMessageType::HEARTBEAT
                                   ? established_ - links_->counters().droppedTotal()
                                   : messages_;
    shared_.delivered.store(delivered, std::memory_order_relaxed);
    shared_.engineDrops.store(links_->counters().droppedTotal(), std::memory_order_relaxed);
  }
}

void BenchNode::sendDatagram(const router::link::TransportAddr& to,
                             std::span<const uint8_t> packet) {
  out_(to, packet);
}

void BenchNode::onLinkUp(const router::link::PeerInfo& peer) {
  peer_ = peer.addr;
  if (dialKey_) shared_.ready.fetch_or(READY_SENDER);
}

void BenchNode::onLinkDown(const router::link::PeerInfo&, router::link::LinkDownReason) {
  peer_.reset();
  shared_.linkDowns.fetch_add(1);
}

void BenchNode::onLinkMessage(const identity::NodeAddr&, LinkMessageType type,
                              std::span<const uint8_t>) {
  if (type == LinkMessageType::SESSION_DATAGRAM) ++messages_;
}

}  // namespace fips::bench
