// SPDX-License-Identifier: MIT
// Test harness for the link engine: N LinkManagers wired through an
// in-memory network on a virtual clock, with per-packet rules (deliver,
// drop, duplicate, delay for reordering). Test code only; no trust boundary.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "router/link/link-manager.h"

namespace fips::router::link::test {

// Deterministic Rng from a seed (tests only).
class SeededRng final : public crypto::Rng {
 public:
  explicit SeededRng(uint64_t seed) : gen_(seed) {}
  [[nodiscard]] bool fill(std::span<uint8_t> out) override;

 private:
  std::mt19937_64 gen_;
};

class VirtualClock final : public Clock {
 public:
  uint64_t nowMs() const override { return now; }
  uint64_t now = 1'000'000;
};

// A datagram on the virtual wire.
struct Packet {
  size_t from;  // node index
  size_t to;
  std::vector<uint8_t> bytes;
  uint64_t deliverAtMs = 0;
  bool data = false;  // emitted by a test sendLinkMessage() call
  uint8_t phase() const { return bytes.empty() ? 0xFF : uint8_t(bytes[0] & 0x0FU); }
};

enum class Verdict : uint8_t { DELIVER, DROP, DUPLICATE };

struct LinkEvent {
  identity::NodeAddr peer;
  bool up;
  LinkDownReason reason;
  uint64_t atMs;
};

class TestNet;

// One node: its keys, its LinkManager and what it observed.
class TestNode final : public LinkIo {
 public:
  TestNode(TestNet& net, size_t index, crypto::SecretKey key, const LinkConfig& config,
           uint64_t seed);
  void sendDatagram(const TransportAddr& to, std::span<const uint8_t> packet) override;
  void onLinkUp(const PeerInfo& peer) override;
  void onLinkDown(const PeerInfo& peer, LinkDownReason reason) override;
  void onLinkMessage(const identity::NodeAddr& peer, fmp::LinkMessageType type,
                     std::span<const uint8_t> body) override;
  void onLinkMeasured(const identity::NodeAddr& peer) override;
  void onLinkSwapped(const PeerInfo& peer) override;

  // A new LinkManager with a fresh epoch (process restart), same key.
  void restart();
  // Sends a data message (SessionDatagram-typed body) and marks its packet.
  bool sendData(const TestNode& to, uint32_t seq);
  bool hasPeer(const TestNode& other) const;
  std::optional<PeerInfo> peer(const TestNode& other) const;

  TestNet& net;
  size_t index;
  TransportAddr addr;
  crypto::SecretKey key;
  crypto::PublicKey publicKey;
  identity::NodeAddr nodeAddr;
  LinkConfig config;
  SeededRng rng;
  std::unique_ptr<LinkManager> mgr;
  bool silent = false;        // neither ticks nor sends nor receives
  bool announceOnUp = false;  // send a TreeAnnounce on every link up, as the daemon does
  bool sendingData = false;
  std::vector<LinkEvent> events;
  std::vector<uint32_t> received;            // data sequence numbers
  std::vector<identity::NodeAddr> measured;  // onLinkMeasured calls
  // The direction last reported per peer (onLinkUp, then onLinkSwapped).
  std::map<identity::NodeAddr, bool> reportedOutbound;
  size_t swaps = 0;  // onLinkSwapped calls
  uint64_t epochCounter = 0;
  uint64_t nextTickMs = 0;  // when TestNet::run ticks it next (set by TestNet::add)
};

class TestNet {
 public:
  explicit TestNet(uint64_t seed);
  TestNode& add(const LinkConfig& config = LinkConfig{});
  // a learns b as a static peer (a dials b).
  void connect(TestNode& a, const TestNode& b);
  // Advances virtual time by ms in 10 ms steps; ticks every node each 1000 ms
  // (all at once, unless a test shifted a node's nextTickMs).
  void run(uint64_t ms);
  void enqueue(Packet packet);
  TestNode& node(size_t i) { return *nodes_[i]; }
  TransportAddr addrOf(size_t i) const;
  size_t indexOf(const TransportAddr& addr) const;

  crypto::Secp256k1Context ctx;
  VirtualClock clock;
  std::mt19937_64 gen;
  std::function<Verdict(const Packet&)> rule;  // default: deliver
  uint64_t maxDelayMs = 0;                     // extra random delay (reordering)
  uint64_t fixedDelayMs = 0;                   // one-way delay of every packet
  std::vector<Packet> log;                     // every packet sent, when logging
  bool logging = false;
  uint64_t dataDropped = 0;

 private:
  void deliverDue();
  std::vector<std::unique_ptr<TestNode>> nodes_;
  std::vector<Packet> queue_;
  uint64_t startMs_;  // the tick grid's origin
};

}  // namespace fips::router::link::test
