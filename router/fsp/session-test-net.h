// SPDX-License-Identifier: MIT
// A few FSP nodes in one process for the session table tests: keys from the
// XK vector file (plus a third), a seeded rng, an injected clock and a
// network that carries SendFsp actions between the tables (in order,
// optionally dropping). Test code only.
#pragma once

#include <deque>
#include <memory>
#include <random>
#include <vector>

#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/test-util.h"
#include "lib/identity/node-addr.h"
#include "router/fsp/session-table.h"

namespace fips::router::fsp::test {

class SeededRng final : public crypto::Rng {
 public:
  explicit SeededRng(uint64_t seed) : gen_(seed) {}
  bool fill(std::span<uint8_t> out) override {
    for (auto& b : out) b = static_cast<uint8_t>(gen_() & 0xFFU);
    return true;
  }

 private:
  std::mt19937_64 gen_;
};

// One node: identity, caches and its session table; actions it produced
// that are not SendFsp are kept in events.
struct TestNode {
  TestNode(const crypto::Secp256k1Context& ctx, const noise::Secp256k1Suite& suite,
           const std::string& secretHex, const SessionConfig& cfg)
      : key(makeKey(ctx, secretHex)),
        addr(NodeAddr::fromPublicKey(key.publicKey())),
        table({&ctx, &suite, &key, addr, {1, 2, 3, 4, 5, 6, 7, 8}}, cfg, coords, identities) {}

  static crypto::SecretKey makeKey(const crypto::Secp256k1Context& ctx, const std::string& hex) {
    const auto bytes = crypto::test::fromHex(hex);
    return *crypto::SecretKey::fromSecret(ctx,
                                          crypto::Secret<32>(std::span<const uint8_t, 32>(bytes)));
  }
  crypto::PublicKey identityKey() const { return key.publicKey(); }

  crypto::SecretKey key;
  NodeAddr addr;
  routing::CoordCache coords;
  routing::IdentityCache identities;
  SessionTable table;
  std::vector<SessionAction> events;
};

// A message in flight from one node to another.
struct InFlight {
  size_t from;
  size_t to;
  std::vector<uint8_t> message;
};

class TestNet {
 public:
  explicit TestNet(const SessionConfig& cfg = {}) : suite_(ctx_), cfg_(cfg) {}

  // Adds a node with the given 32-byte secret (hex); returns its index.
  size_t add(const std::string& secretHex) {
    nodes_.push_back(std::make_unique<TestNode>(ctx_, suite_, secretHex, cfg_));
    return nodes_.size() - 1;
  }
  TestNode& node(size_t i) { return *nodes_[i]; }
  uint64_t now() const { return nowMs_; }
  void advance(uint64_t ms) { nowMs_ += ms; }
  crypto::Rng& rng() { return rng_; }
  std::deque<InFlight>& wire() { return wire_; }

  // Files SendFsp actions of node `from` on the wire, the rest in its events.
  void collect(size_t from, SessionActions& actions) {
    for (auto& a : actions) {
      if (auto* send = std::get_if<SendFsp>(&a)) {
        wire_.push_back({from, indexOf(send->dest), std::move(send->message)});
      } else {
        nodes_[from]->events.push_back(std::move(a));
      }
    }
    actions.clear();
  }
  // Delivers everything on the wire (and what that produces) until quiet;
  // every message goes directly, so the link peer is the sender.
  void run(uint16_t pathMtu = 1280) {
    while (!wire_.empty()) deliverFront(pathMtu);
  }
  // Delivers only what is on the wire now; what that sends stays on it.
  void runOnce(uint16_t pathMtu = 1280) {
    for (size_t n = wire_.size(); n > 0 && !wire_.empty(); --n) deliverFront(pathMtu);
  }
  void deliverFront(uint16_t pathMtu) {
    InFlight f = std::move(wire_.front());
    wire_.pop_front();
    if (f.to >= nodes_.size()) return;
    SessionActions out;
    nodes_[f.to]->table.onDatagram(nodes_[f.from]->addr, nodes_[f.from]->addr, f.message, pathMtu,
                                   false, nowMs_, rng_, out);
    collect(f.to, out);
  }
  void tick(size_t i) {
    SessionActions out;
    nodes_[i]->table.tick(nowMs_, rng_, out);
    collect(i, out);
  }
  SendOutcome send(size_t from, size_t to, const std::vector<uint8_t>& payload,
                   uint16_t port = 1024) {
    SessionActions out;
    const auto r =
        nodes_[from]->table.sendData(nodes_[to]->addr, port, port, payload, nowMs_, rng_, out);
    collect(from, out);
    return r;
  }
  // Makes node a know node b's identity (as a DNS answer would).
  void introduce(size_t a, size_t b) { nodes_[a]->identities.insert(nodes_[b]->identityKey()); }

  // Data delivered to node i, in order.
  std::vector<DeliverData> delivered(size_t i) const {
    std::vector<DeliverData> out;
    for (const auto& e : nodes_[i]->events) {
      if (const auto* d = std::get_if<DeliverData>(&e)) out.push_back(*d);
    }
    return out;
  }
  template <typename T>
  size_t count(size_t i) const {
    size_t n = 0;
    for (const auto& e : nodes_[i]->events) n += std::holds_alternative<T>(e) ? 1U : 0U;
    return n;
  }

 private:
  size_t indexOf(const NodeAddr& addr) const {
    for (size_t i = 0; i < nodes_.size(); ++i) {
      if (nodes_[i]->addr == addr) return i;
    }
    return nodes_.size();
  }

  crypto::Secp256k1Context ctx_;
  noise::Secp256k1Suite suite_;
  SessionConfig cfg_;
  SeededRng rng_{42};
  uint64_t nowMs_ = 1'000'000;
  std::vector<std::unique_ptr<TestNode>> nodes_;
  std::deque<InFlight> wire_;
};

}  // namespace fips::router::fsp::test
