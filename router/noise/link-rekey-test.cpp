// SPDX-License-Identifier: MIT
// Link rekey simulated end to end in one process with an injected clock, rng
// and a lossy, reordering network: no deliverable frame is lost across
// rekeys; simultaneous rekeys end with one session; a lost msg2 does not kill
// the link. Test code only.
#include "router/noise/link-rekey.h"

#include <algorithm>
#include <deque>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include "lib/crypto/sha256.h"

namespace fips::router::noise {
namespace {

constexpr uint64_t STEP_MS = 100;

struct Packet {
  enum class Kind : uint8_t { DATA, MSG1, MSG2 } kind;
  std::vector<uint8_t> bytes;
  uint64_t deliverAtMs;
};

// Loss/reorder knobs for one simulation.
struct NetConditions {
  double dataLoss = 0.0;
  double controlLoss = 0.0;
  uint64_t maxExtraDelayMs = 0;
  bool dropAllMsg2 = false;
  int dropFirstMsg2 = 0;
};

NodeAddrBytes nodeAddr(const crypto::PublicKey& key) {
  const auto digest = crypto::sha256(key.xOnly());
  NodeAddrBytes addr{};
  std::copy_n(digest.begin(), addr.size(), addr.begin());
  return addr;
}

struct Sim {
  crypto::Secp256k1Context ctx;
  Secp256k1Suite suite{ctx};
  crypto::OpenSslRng rng;
  std::optional<crypto::SecretKey> keyA;
  std::optional<crypto::SecretKey> keyB;
  std::optional<LinkRekey> a;
  std::optional<LinkRekey> b;
  std::deque<Packet> toA;
  std::deque<Packet> toB;
  std::mt19937_64 gen{7};
  NetConditions net;
  uint64_t now = 0;
  uint64_t delivered = 0;
  uint64_t deliverFailures = 0;
  uint64_t msg2Seen = 0;

  Sim(const LinkRekeyConfig& cfg, int64_t jitterA, int64_t jitterB, bool aSmaller) {
    // Pick keys so that A's NodeAddr is the smaller one when aSmaller.
    for (;;) {
      keyA = crypto::SecretKey::generate(ctx, rng);
      keyB = crypto::SecretKey::generate(ctx, rng);
      if (keepsInitiatorRole(nodeAddr(keyA->publicKey()), nodeAddr(keyB->publicKey())) ==
          aSmaller) {
        break;
      }
    }
    const Epoch ea{1};
    const Epoch eb{2};
    auto init = Handshake::initiator(FipsPattern::IK, suite, keyA->clone(), keyB->publicKey(), ea);
    auto resp = Handshake::responder(FipsPattern::IK, suite, keyB->clone(), eb);
    RekeyMsg1 m1{};
    RekeyMsg2 m2{};
    REQUIRE(init.writeMessage(m1, rng) == HandshakeStatus::OK);
    REQUIRE(resp.readMessage(m1) == HandshakeStatus::OK);
    REQUIRE(resp.writeMessage(m2, rng) == HandshakeStatus::OK);
    REQUIRE(init.readMessage(m2) == HandshakeStatus::OK);
    const LinkPeerIdentity idA{
        &suite, &*keyA, keyB->publicKey(), nodeAddr(keyA->publicKey()), nodeAddr(keyB->publicKey()),
        ea,     eb};
    const LinkPeerIdentity idB{
        &suite, &*keyB, keyA->publicKey(), nodeAddr(keyB->publicKey()), nodeAddr(keyA->publicKey()),
        eb,     ea};
    a.emplace(idA, cfg, *init.split(), 0, jitterA);
    b.emplace(idB, cfg, *resp.split(), 0, jitterB);
  }

  bool lose(double p) { return std::uniform_real_distribution<double>(0, 1)(gen) < p; }

  void send(std::deque<Packet>& q, Packet::Kind kind, std::span<const uint8_t> bytes) {
    const bool control = kind != Packet::Kind::DATA;
    if (kind == Packet::Kind::MSG2) {
      if (net.dropAllMsg2 || net.dropFirstMsg2 > 0) {
        --net.dropFirstMsg2;
        return;
      }
    }
    if (lose(control ? net.controlLoss : net.dataLoss)) return;
    const uint64_t extra = net.maxExtraDelayMs == 0 ? 0
                                                    : std::uniform_int_distribution<uint64_t>(
                                                          0, net.maxExtraDelayMs)(gen);
    q.push_back({kind, std::vector<uint8_t>(bytes.begin(), bytes.end()), now + 1 + extra});
  }

  void sendData(LinkRekey& from, std::deque<Packet>& q) {
    std::vector<uint8_t> frame(16 + 5 + 16);
    frame[1] = from.keys().kBit() ? 1 : 0;
    frame[2] = 5;
    const std::vector<uint8_t> plain{0, 0, 0, 0, 0x51};
    REQUIRE(
        from.keys().sealFrame(std::span(frame).first(16), 8, plain, std::span(frame).subspan(16)));
    send(q, Packet::Kind::DATA, frame);
  }

  void deliver(LinkRekey& to, std::deque<Packet>& q, std::deque<Packet>& back) {
    std::deque<Packet> keep;
    for (auto& p : q) {
      if (p.deliverAtMs > now) {
        keep.push_back(std::move(p));
        continue;
      }
      const std::span<const uint8_t> bytes(p.bytes);
      if (p.kind == Packet::Kind::DATA) {
        std::vector<uint8_t> out(bytes.size() - 32);
        const bool k = (bytes[1] & 1U) != 0;
        auto r = to.openFrame(k, bytes.first(16), 8, bytes.subspan(16), out, now);
        if (r.status == OpenStatus::OK) {
          ++delivered;
        } else {
          ++deliverFailures;
        }
      } else if (p.kind == Packet::Kind::MSG1) {
        if (auto msg2 = to.onMsg1(bytes, now, rng)) send(back, Packet::Kind::MSG2, *msg2);
      } else {
        ++msg2Seen;
        to.onMsg2(bytes);
      }
    }
    q = std::move(keep);
  }

  void run(uint64_t untilMs) {
    for (; now < untilMs; now += STEP_MS) {
      if (auto m = a->tick(now, rng)) send(toB, Packet::Kind::MSG1, *m);
      if (auto m = b->tick(now, rng)) send(toA, Packet::Kind::MSG1, *m);
      sendData(*a, toB);
      sendData(*b, toA);
      // Shuffle arrival order within the queue to reorder.
      if (net.maxExtraDelayMs > 0) {
        std::stable_sort(toA.begin(), toA.end(), [](const Packet& x, const Packet& y) {
          return x.deliverAtMs < y.deliverAtMs;
        });
        std::stable_sort(toB.begin(), toB.end(), [](const Packet& x, const Packet& y) {
          return x.deliverAtMs < y.deliverAtMs;
        });
      }
      deliver(*b, toB, toA);
      deliver(*a, toA, toB);
    }
  }
};

LinkRekeyConfig fastRekey() {
  LinkRekeyConfig cfg;
  cfg.rekey.afterSecs = 40;
  return cfg;
}

TEST_CASE("rekey under 10% loss and 300 ms reordering loses no deliverable frame") {
  Sim sim(fastRekey(), 3, -7, true);
  sim.net.dataLoss = 0.1;
  sim.net.controlLoss = 0.1;
  sim.net.maxExtraDelayMs = 300;
  sim.run(400'000);
  CHECK(sim.deliverFailures == 0);
  CHECK(sim.delivered > 6000);
  CHECK(sim.a->completedRekeys() >= 5);
  CHECK(sim.b->completedRekeys() >= 5);
}

TEST_CASE("both sides start a rekey at the same moment: one session results") {
  for (bool aSmaller : {true, false}) {
    CAPTURE(aSmaller);
    Sim sim(fastRekey(), 0, 0, aSmaller);
    // Both trigger at t = 40 s exactly and their msg1s cross.
    sim.run(40'000 + 2 * STEP_MS);
    CHECK(sim.a->rekeyInProgress() == aSmaller);
    CHECK(sim.b->rekeyInProgress() == !aSmaller);
    sim.run(45'000);
    CHECK(sim.a->completedRekeys() == 1);
    CHECK(sim.b->completedRekeys() == 1);
    CHECK(sim.a->keys().kBit() == sim.b->keys().kBit());
    CHECK_FALSE(sim.a->keys().hasPending());
    CHECK_FALSE(sim.b->keys().hasPending());
    CHECK(sim.deliverFailures == 0);
  }
}

TEST_CASE("a rekey whose msg2 is lost does not kill the link") {
  SUBCASE("every msg2 of the first cycles lost: old keys keep working, a later rekey lands") {
    Sim sim(fastRekey(), 0, 10, true);
    sim.net.dropAllMsg2 = true;
    sim.run(100'000);
    CHECK(sim.a->completedRekeys() == 0);
    CHECK(sim.msg2Seen == 0);
    CHECK(sim.deliverFailures == 0);
    const uint64_t before = sim.delivered;
    sim.net.dropAllMsg2 = false;
    sim.run(200'000);
    CHECK(sim.delivered > before);
    CHECK(sim.a->completedRekeys() >= 1);
    CHECK(sim.a->keys().kBit() == sim.b->keys().kBit());
    CHECK(sim.deliverFailures == 0);
  }
  SUBCASE("first msg2 lost: the msg1 resend gets the stored msg2 again") {
    Sim sim(fastRekey(), 0, 10, true);
    sim.net.dropFirstMsg2 = 1;
    sim.run(45'000);
    CHECK(sim.a->completedRekeys() == 1);
    CHECK(sim.b->completedRekeys() == 1);
    CHECK(sim.deliverFailures == 0);
  }
}

TEST_CASE("rekey triggers: jittered time, message count, and the tie-break") {
  RekeyConfig cfg;
  CHECK_FALSE(rekeyDue(cfg, 119'999, 0, 0));
  CHECK(rekeyDue(cfg, 120'000, 0, 0));
  CHECK(rekeyDue(cfg, 105'000, -15, 0));
  CHECK_FALSE(rekeyDue(cfg, 134'999, 15, 0));
  CHECK(rekeyDue(cfg, 0, 0, 65536));
  CHECK_FALSE(rekeyDue(cfg, 0, 0, 65535));
  crypto::OpenSslRng rng;
  int64_t lo = 0;
  int64_t hi = 0;
  for (int i = 0; i < 500; ++i) {
    int64_t j = 0;
    REQUIRE(drawRekeyJitter(rng, j));
    lo = std::min(lo, j);
    hi = std::max(hi, j);
  }
  CHECK(lo == -REKEY_JITTER_SECS);
  CHECK(hi == REKEY_JITTER_SECS);
  NodeAddrBytes small{};
  NodeAddrBytes big{};
  big[15] = 1;
  CHECK(keepsInitiatorRole(small, big));
  CHECK_FALSE(keepsInitiatorRole(big, small));
}

}  // namespace
}  // namespace fips::router::noise
