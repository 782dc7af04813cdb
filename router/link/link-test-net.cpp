// SPDX-License-Identifier: MIT
// In-memory network and virtual clock for the link engine tests (see
// link-test-net.h). Test code only.
#include "router/link/link-test-net.h"

#include <algorithm>
#include <variant>

#include <doctest/doctest.h>

namespace fips::router::link::test {

bool SeededRng::fill(std::span<uint8_t> out) {
  for (uint8_t& b : out) b = static_cast<uint8_t>(gen_() & 0xFFU);
  return true;
}

namespace {

crypto::SecretKey makeKey(const crypto::Secp256k1Context& ctx, crypto::Rng& rng) {
  auto key = crypto::SecretKey::generate(ctx, rng);
  REQUIRE(key.has_value());
  return std::move(*key);
}

crypto::PublicKey identityKey(const crypto::SecretKey& key) {
  return key.publicKey();
}

}  // namespace

TestNode::TestNode(TestNet& n, size_t i, crypto::SecretKey k, const LinkConfig& c, uint64_t seed)
    : net(n),
      index(i),
      addr(n.addrOf(i)),
      key(std::move(k)),
      publicKey(identityKey(key)),
      nodeAddr(identity::NodeAddr::fromPublicKey(publicKey)),
      config(c),
      rng(seed) {
  restart();
}

void TestNode::restart() {
  noise::Epoch epoch{};
  ++epochCounter;
  for (size_t i = 0; i < epoch.size(); ++i) {
    epoch[i] = static_cast<uint8_t>((epochCounter >> (8 * i)) ^ (index * 31));
  }
  mgr = std::make_unique<LinkManager>(net.ctx, key.clone(), epoch, config, net.clock, rng, *this);
}

void TestNode::sendDatagram(const TransportAddr& to, std::span<const uint8_t> packet) {
  if (silent) return;
  net.enqueue(Packet{index, net.indexOf(to), {packet.begin(), packet.end()}, 0, sendingData});
}

void TestNode::onLinkUp(const PeerInfo& peer) {
  events.push_back({peer.addr, true, LinkDownReason::DEAD, net.clock.now});
  reportedOutbound[peer.addr] = peer.outbound;
  if (announceOnUp) mgr->sendLinkMessage(peer.addr, fmp::LinkMessageType::TREE_ANNOUNCE, {});
}

void TestNode::onLinkSwapped(const PeerInfo& peer) {
  reportedOutbound[peer.addr] = peer.outbound;
  ++swaps;
}

void TestNode::onLinkDown(const PeerInfo& peer, LinkDownReason reason) {
  events.push_back({peer.addr, false, reason, net.clock.now});
}

void TestNode::onLinkMessage(const identity::NodeAddr&, fmp::LinkMessageType type,
                             std::span<const uint8_t> body) {
  if (type != fmp::LinkMessageType::SESSION_DATAGRAM || body.size() < 39) return;
  received.push_back(uint32_t{body[35]} | (uint32_t{body[36]} << 8U) | (uint32_t{body[37]} << 16U) |
                     (uint32_t{body[38]} << 24U));
}

void TestNode::onLinkMeasured(const identity::NodeAddr& peer) {
  measured.push_back(peer);
}

bool TestNode::sendData(const TestNode& to, uint32_t seq) {
  // ttl, path_mtu, src, dst (35 bytes), then the sequence number.
  std::vector<uint8_t> body(39, 0);
  for (size_t i = 0; i < 4; ++i) body[35 + i] = static_cast<uint8_t>(seq >> (8 * i));
  sendingData = true;
  const bool ok = mgr->sendLinkMessage(to.nodeAddr, fmp::LinkMessageType::SESSION_DATAGRAM, body);
  sendingData = false;
  return ok;
}

bool TestNode::hasPeer(const TestNode& other) const {
  return peer(other).has_value();
}

std::optional<PeerInfo> TestNode::peer(const TestNode& other) const {
  for (const PeerInfo& p : mgr->peers()) {
    if (p.addr == other.nodeAddr) return p;
  }
  return std::nullopt;
}

TestNet::TestNet(uint64_t seed) : gen(seed), startMs_(clock.now) {}

TransportAddr TestNet::addrOf(size_t i) const {
  const uint8_t ip[4] = {10, 0, static_cast<uint8_t>(i >> 8U), static_cast<uint8_t>(i & 0xFFU)};
  return *TransportAddr::make(1, ip, 2121);
}

size_t TestNet::indexOf(const TransportAddr& addr) const {
  return (size_t{addr.ip[2]} << 8U) | addr.ip[3];
}

TestNode& TestNet::add(const LinkConfig& config) {
  SeededRng keyRng(gen());
  nodes_.push_back(
      std::make_unique<TestNode>(*this, nodes_.size(), makeKey(ctx, keyRng), config, gen()));
  // On the net's 1000 ms grid, as every node added before.
  nodes_.back()->nextTickMs = startMs_ + 1000 * ((clock.now - startMs_) / 1000 + 1);
  return *nodes_.back();
}

void TestNet::connect(TestNode& a, const TestNode& b) {
  REQUIRE(a.mgr->addStaticPeer(b.publicKey, {b.addr}));
}

void TestNet::enqueue(Packet packet) {
  if (logging) log.push_back(packet);
  const Verdict verdict = rule ? rule(packet) : Verdict::DELIVER;
  if (verdict == Verdict::DROP) {
    if (packet.data) ++dataDropped;
    return;
  }
  packet.deliverAtMs = clock.now + fixedDelayMs + (maxDelayMs ? gen() % (maxDelayMs + 1) : 0);
  if (verdict == Verdict::DUPLICATE) queue_.push_back(packet);
  queue_.push_back(std::move(packet));
}

void TestNet::deliverDue() {
  // Take the due packets out first: delivery can enqueue more.
  std::vector<Packet> due;
  auto split = std::stable_partition(queue_.begin(), queue_.end(),
                                     [this](const Packet& p) { return p.deliverAtMs > clock.now; });
  std::move(split, queue_.end(), std::back_inserter(due));
  queue_.erase(split, queue_.end());
  for (const Packet& p : due) {
    if (p.to >= nodes_.size()) continue;  // addressed to a hand-driven stranger
    TestNode& to = *nodes_[p.to];
    if (!to.silent) to.mgr->onDatagram(addrOf(p.from), p.bytes);
  }
}

void TestNet::run(uint64_t ms) {
  const uint64_t end = clock.now + ms;
  while (clock.now < end) {
    clock.now += 10;
    deliverDue();
    for (auto& n : nodes_) {
      if (clock.now < n->nextTickMs) continue;
      n->nextTickMs += 1000;
      if (!n->silent) n->mgr->tick();
    }
  }
}

}  // namespace fips::router::link::test
