// SPDX-License-Identifier: MIT
// FSP session rekey simulated end to end in one process with an injected
// clock, a seeded rng and a lossy, reordering network carrying both data
// frames and XK messages: no deliverable frame is lost, simultaneous rekeys
// end with one session, lost msg2/msg3 do not kill the session, a foreign
// static key is rejected, and the K bit alone never promotes. Test code only.
#include "router/noise/session-rekey.h"

#include <algorithm>
#include <deque>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include "lib/crypto/sha256.h"

namespace fips::router::noise {
namespace {

constexpr uint64_t STEP_MS = 100;
constexpr size_t FSP_HEADER = 12;  // prefix(4) ‖ counter(8), spec 04 §3
constexpr size_t COUNTER_OFFSET = 4;
constexpr uint8_t FLAG_K = 0x02;
constexpr size_t TAG = 16;

// Deterministic bytes so every run of a simulation is the same run.
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

enum class Kind : uint8_t { DATA, MSG1, MSG2, MSG3 };

struct Packet {
  Kind kind;
  std::vector<uint8_t> bytes;
  uint64_t deliverAtMs;
  uint64_t sealGeneration;  // DATA: cutovers the sender had made when sealing
};

// Loss/reorder knobs; dropMsg2ToA/dropMsg3ToB drop the next N msg2 sent to A
// or msg3 sent to B (-1: all), for scripts where A initiates.
struct NetConditions {
  double dataLoss = 0.0;
  double controlLoss = 0.0;
  uint64_t maxExtraDelayMs = 0;
  int dropMsg2ToA = 0;
  int dropMsg3ToB = 0;
};

struct Node {
  std::optional<crypto::SecretKey> key;
  std::optional<SessionRekey> rekey;
  uint64_t derived = 0;  // rekey handshakes completed here: keys it can hold
  std::deque<Packet> inbox;
};

NodeAddrBytes nodeAddr(const crypto::PublicKey& key) {
  const auto digest = crypto::sha256(key.xOnly());
  NodeAddrBytes addr{};
  std::copy_n(digest.begin(), addr.size(), addr.begin());
  return addr;
}

SessionRekeyConfig fastRekey() {
  SessionRekeyConfig cfg;
  cfg.rekey.afterSecs = 40;
  return cfg;
}

// Frame accounting. A frame that arrives is "deliverable" unless it was
// sealed under keys the receiver has not derived yet (its msg3 is still in
// flight after the initiator's timed cutover: the reference's design).
struct Counters {
  uint64_t sent = 0;
  uint64_t netLost = 0;
  uint64_t delivered = 0;
  uint64_t undeliverable = 0;
  uint64_t failures = 0;
  uint64_t arrived() const { return delivered + undeliverable + failures; }
};

struct Sim {
  crypto::Secp256k1Context ctx;
  Secp256k1Suite suite{ctx};
  SeededRng rng;
  std::mt19937_64 gen;
  Node a;
  Node b;
  NetConditions net;
  Counters count;
  uint64_t now = 0;

  Sim(const SessionRekeyConfig& cfg, int64_t jitterA, int64_t jitterB, bool aSmaller,
      uint64_t seed = 7, std::optional<SessionRekeyConfig> cfgB = {})
      : rng(seed), gen(seed) {
    // Pick keys so that A's NodeAddr is the smaller one when aSmaller.
    do {
      a.key = crypto::SecretKey::generate(ctx, rng);
      b.key = crypto::SecretKey::generate(ctx, rng);
    } while (keepsInitiatorRole(nodeAddr(a.key->publicKey()), nodeAddr(b.key->publicKey())) !=
             aSmaller);
    const Epoch ea{1};
    const Epoch eb{2};
    auto init =
        Handshake::initiator(FipsPattern::XK, suite, a.key->clone(), b.key->publicKey(), ea);
    auto resp = Handshake::responder(FipsPattern::XK, suite, b.key->clone(), eb);
    XkMsg1 m1{};
    XkMsg2 m2{};
    XkMsg3 m3{};
    REQUIRE(init.writeMessage(m1, rng) == HandshakeStatus::OK);
    REQUIRE(resp.readMessage(m1) == HandshakeStatus::OK);
    REQUIRE(resp.writeMessage(m2, rng) == HandshakeStatus::OK);
    REQUIRE(init.readMessage(m2) == HandshakeStatus::OK);
    REQUIRE(init.writeMessage(m3, rng) == HandshakeStatus::OK);
    REQUIRE(resp.readMessage(m3) == HandshakeStatus::OK);
    const SessionPeerIdentity idA{&suite,
                                  &*a.key,
                                  b.key->publicKey(),
                                  nodeAddr(a.key->publicKey()),
                                  nodeAddr(b.key->publicKey()),
                                  ea};
    const SessionPeerIdentity idB{&suite,
                                  &*b.key,
                                  a.key->publicKey(),
                                  nodeAddr(b.key->publicKey()),
                                  nodeAddr(a.key->publicKey()),
                                  eb};
    a.rekey.emplace(idA, cfg, *init.split(), 0, jitterA);
    b.rekey.emplace(idB, cfgB.value_or(cfg), *resp.split(), 0, jitterB);
  }

  bool lose(double p) { return std::uniform_real_distribution<double>(0, 1)(gen) < p; }

  static bool scriptedDrop(int& budget) {
    if (budget == 0) return false;
    if (budget > 0) --budget;
    return true;
  }

  void send(Node& to, Kind kind, std::span<const uint8_t> bytes, uint64_t generation = 0) {
    if (kind == Kind::MSG2 && &to == &a && scriptedDrop(net.dropMsg2ToA)) return;
    if (kind == Kind::MSG3 && &to == &b && scriptedDrop(net.dropMsg3ToB)) return;
    if (kind == Kind::DATA) ++count.sent;
    if (lose(kind == Kind::DATA ? net.dataLoss : net.controlLoss)) {
      if (kind == Kind::DATA) ++count.netLost;
      return;
    }
    const uint64_t extra = net.maxExtraDelayMs == 0 ? 0
                                                    : std::uniform_int_distribution<uint64_t>(
                                                          0, net.maxExtraDelayMs)(gen);
    to.inbox.push_back({kind, {bytes.begin(), bytes.end()}, now + 1 + extra, generation});
  }

  // An FSP-shaped frame: 12-byte header (K in flags bit 1) ‖ sealed 8-byte body.
  static std::vector<uint8_t> seal(Node& from, std::optional<bool> kOverride = {}) {
    std::vector<uint8_t> frame(FSP_HEADER + 8 + TAG);
    const bool k = kOverride.value_or(from.rekey->keys().kBit());
    frame[1] = k ? FLAG_K : 0;
    frame[2] = 8;
    const std::vector<uint8_t> body(8, 0x51);
    REQUIRE(from.rekey->keys().sealFrame(std::span(frame).first(FSP_HEADER), COUNTER_OFFSET, body,
                                         std::span(frame).subspan(FSP_HEADER)));
    return frame;
  }

  void sendData(Node& from, Node& to) {
    send(to, Kind::DATA, seal(from), from.rekey->completedRekeys());
  }

  static EpochOpenResult open(Node& to, std::span<const uint8_t> frame, uint64_t nowMs) {
    std::vector<uint8_t> out(frame.size() - FSP_HEADER - TAG);
    const bool k = (frame[1] & FLAG_K) != 0;
    return to.rekey->openFrame(k, frame.first(FSP_HEADER), COUNTER_OFFSET,
                               frame.subspan(FSP_HEADER), out, nowMs);
  }

  void receive(Node& to, Node& from, const Packet& p) {
    const std::span<const uint8_t> bytes(p.bytes);
    switch (p.kind) {
      case Kind::DATA:
        if (open(to, bytes, now).status == OpenStatus::OK) {
          ++count.delivered;
        } else if (p.sealGeneration > to.derived) {
          ++count.undeliverable;
        } else {
          ++count.failures;
        }
        break;
      case Kind::MSG1:
        if (auto msg2 = to.rekey->onMsg1(bytes, now, rng)) send(from, Kind::MSG2, *msg2);
        break;
      case Kind::MSG2:
        if (auto msg3 = to.rekey->onMsg2(bytes, now, rng)) {
          ++to.derived;
          send(from, Kind::MSG3, *msg3);
        }
        break;
      case Kind::MSG3:
        if (to.rekey->onMsg3(bytes, now)) ++to.derived;
        break;
    }
  }

  void deliver(Node& to, Node& from) {
    std::stable_sort(to.inbox.begin(), to.inbox.end(), [](const Packet& x, const Packet& y) {
      return x.deliverAtMs < y.deliverAtMs;
    });
    while (!to.inbox.empty() && to.inbox.front().deliverAtMs <= now) {
      const Packet p = std::move(to.inbox.front());
      to.inbox.pop_front();
      receive(to, from, p);
    }
  }

  void tick(Node& n, Node& peer) {
    const SessionRekeyTick t = n.rekey->tick(now, rng);
    if (t.msg1) send(peer, Kind::MSG1, *t.msg1);
    if (t.msg3) send(peer, Kind::MSG3, *t.msg3);
  }

  void run(uint64_t untilMs, bool data = true) {
    for (; now < untilMs; now += STEP_MS) {
      tick(a, b);
      tick(b, a);
      if (data) {
        sendData(a, b);
        sendData(b, a);
      }
      deliver(b, a);
      deliver(a, b);
    }
  }

  // Lets the frames still in flight arrive (no new data), rekey timers running.
  void settle() { run(now + 4 * STEP_MS, false); }

  SessionRekey& ra() { return *a.rekey; }
  SessionRekey& rb() { return *b.rekey; }
};

TEST_CASE("session rekey under 10% loss and 300 ms reordering loses no deliverable frame") {
  for (uint64_t seed : {7U, 11U, 23U, 42U}) {
    CAPTURE(seed);
    Sim sim(fastRekey(), 3, -7, seed % 2 == 1, seed);
    sim.net.dataLoss = 0.1;
    sim.net.controlLoss = 0.1;
    sim.net.maxExtraDelayMs = 300;
    sim.run(600'000);
    sim.net = {};
    sim.settle();
    const Counters& c = sim.count;
    MESSAGE("seed " << seed << ": sent " << c.sent << ", lost by the network " << c.netLost
                    << ", delivered " << c.delivered << ", sealed before the peer had the keys "
                    << c.undeliverable << ", rekeys A " << sim.ra().completedRekeys() << " B "
                    << sim.rb().completedRekeys() << ", msg3 cycles abandoned "
                    << sim.ra().stats().abandoned + sim.rb().stats().abandoned);
    CHECK(c.failures == 0);
    CHECK(c.sent - c.netLost == c.arrived());
    CHECK(c.delivered > 10'000);
    CHECK(c.undeliverable * 100 < c.arrived());
    CHECK(sim.ra().completedRekeys() >= 8);
    CHECK(sim.rb().completedRekeys() + 1 >= sim.ra().completedRekeys());
    CHECK(sim.ra().completedRekeys() + 1 >= sim.rb().completedRekeys());
  }
}

TEST_CASE("both sides start a session rekey at once: one session, smaller NodeAddr initiates") {
  for (bool aSmaller : {true, false}) {
    CAPTURE(aSmaller);
    Sim sim(fastRekey(), 0, 0, aSmaller);
    // Both trigger at t = 40 s and their msg1s cross; msg2 and msg3 follow.
    sim.run(40'000 + 3 * STEP_MS);
    SessionRekey& small = aSmaller ? sim.ra() : sim.rb();
    SessionRekey& large = aSmaller ? sim.rb() : sim.ra();
    CHECK(small.stats().tieBreakDrops == 1);
    CHECK(large.stats().yielded == 1);
    CHECK(small.awaitingConfirmation());  // sent msg3: it kept the initiator role
    CHECK_FALSE(large.awaitingConfirmation());
    sim.run(40'000 + 4 * STEP_MS);
    CHECK(small.keys().hasPending());
    CHECK(large.keys().hasPending());
    sim.run(45'000);
    CHECK(sim.ra().completedRekeys() == 1);
    CHECK(sim.rb().completedRekeys() == 1);
    CHECK(sim.ra().keys().kBit() == sim.rb().keys().kBit());
    CHECK_FALSE(sim.ra().keys().hasPending());
    CHECK_FALSE(sim.rb().keys().hasPending());
    CHECK_FALSE(small.awaitingConfirmation());
    CHECK(sim.count.failures + sim.count.undeliverable == 0);
  }
}

TEST_CASE("a session rekey whose msg2 is lost does not kill the session") {
  SUBCASE("first msg2 lost: both handshakes expire, the next rekey lands") {
    Sim sim(fastRekey(), 0, 10, true);
    sim.net.dropMsg2ToA = 1;
    sim.run(40'500);
    CHECK(sim.ra().isRekeyInitiator());
    CHECK(sim.rb().rekeyInProgress());
    const uint64_t before = sim.count.delivered;
    sim.run(69'000);
    CHECK(sim.count.delivered - before == 2 * (69'000 - 40'500) / STEP_MS);
    CHECK(sim.ra().completedRekeys() == 0);
    sim.run(80'000);
    CHECK(sim.ra().stats().expired == 1);
    CHECK(sim.rb().stats().expired == 1);
    CHECK(sim.ra().completedRekeys() == 1);
    CHECK(sim.rb().completedRekeys() == 1);
    CHECK(sim.count.failures + sim.count.undeliverable == 0);
  }
  SUBCASE("every msg2 lost for 150 s: old keys keep working, a later rekey lands") {
    Sim sim(fastRekey(), 0, 10, true);
    sim.net.dropMsg2ToA = -1;
    sim.run(150'000);
    sim.settle();
    CHECK(sim.ra().completedRekeys() + sim.rb().completedRekeys() == 0);
    CHECK(sim.count.delivered == 2 * 150'000 / STEP_MS);
    sim.net.dropMsg2ToA = 0;
    sim.run(300'000);
    CHECK(sim.ra().completedRekeys() >= 1);
    CHECK(sim.ra().keys().kBit() == sim.rb().keys().kBit());
    CHECK(sim.count.failures + sim.count.undeliverable == 0);
  }
}

TEST_CASE("a session rekey whose msg3 is lost does not kill the session") {
  SUBCASE("first msg3 lost: the resend 1 s later arrives before the 2 s cutover") {
    Sim sim(fastRekey(), 0, 10, true);
    sim.net.dropMsg3ToB = 1;
    sim.run(41'500);
    CHECK(sim.rb().keys().hasPending());  // from the resent msg3
    sim.run(45'000);
    CHECK(sim.ra().completedRekeys() == 1);
    CHECK(sim.rb().completedRekeys() == 1);
    CHECK_FALSE(sim.ra().awaitingConfirmation());
    CHECK(sim.count.failures + sim.count.undeliverable == 0);
  }
  SUBCASE("msg3 and its first resend lost: only frames of the cutover gap are lost") {
    Sim sim(fastRekey(), 0, 10, true);
    sim.net.dropMsg3ToB = 2;
    sim.run(50'000);
    CHECK(sim.ra().completedRekeys() == 1);
    CHECK(sim.rb().completedRekeys() == 1);
    CHECK_FALSE(sim.ra().awaitingConfirmation());
    // A cut over at 42.2 s, the second resend reached B at 43.3 s.
    MESSAGE("frames sealed before the peer had the keys: " << sim.count.undeliverable);
    CHECK(sim.count.undeliverable <= 12);
    CHECK(sim.count.failures == 0);
  }
  SUBCASE("every copy of msg3 lost, B rekeys too: B's own rekey heals the session") {
    Sim sim(fastRekey(), 0, 10, true);
    sim.net.dropMsg3ToB = 6;  // msg3 and all 5 resends
    sim.run(80'000);
    CHECK(sim.rb().stats().expired == 1);
    CHECK(sim.rb().completedRekeys() == 1);  // B initiated at 70.3 s
    CHECK(sim.ra().completedRekeys() == 2);  // A's own cutover, then B's keys
    CHECK_FALSE(sim.ra().awaitingConfirmation());
    // A->B is dark from A's cutover at 42.2 s until B's rekey (reference design).
    MESSAGE("frames lost while the cycle was broken: " << sim.count.undeliverable +
                                                              sim.count.failures);
    sim.settle();
    sim.count = {};
    sim.run(200'000);
    sim.settle();
    CHECK(sim.count.delivered == sim.count.sent);
  }
  SUBCASE("every copy of msg3 lost, B never rekeys: A abandons, its next cycle heals") {
    SessionRekeyConfig off = fastRekey();
    off.rekey.enabled = false;
    Sim sim(fastRekey(), 0, 10, true, 7, off);
    sim.net.dropMsg3ToB = 6;  // msg3 and all 5 resends
    sim.run(110'000);
    CHECK(sim.ra().stats().abandoned == 1);
    CHECK(sim.rb().stats().expired == 1);
    CHECK(sim.rb().completedRekeys() == 1);
    MESSAGE("frames lost while the cycle was broken: " << sim.count.undeliverable +
                                                              sim.count.failures);
    sim.settle();
    sim.count = {};
    sim.run(300'000);
    sim.settle();
    CHECK(sim.count.delivered == sim.count.sent);
    CHECK(sim.ra().completedRekeys() >= 4);
  }
}

TEST_CASE("a session rekey msg3 from a different static key is rejected") {
  Sim sim(fastRekey(), 100, 100, true);
  sim.run(35'000);
  // C knows B's public key and claims A's address: msg1 carries no identity.
  auto keyC = crypto::SecretKey::generate(sim.ctx, sim.rng);
  REQUIRE(keyC);
  auto hs = Handshake::initiator(FipsPattern::XK, sim.suite, keyC->clone(), sim.b.key->publicKey(),
                                 Epoch{3});
  XkMsg1 m1{};
  XkMsg3 m3{};
  REQUIRE(hs.writeMessage(m1, sim.rng) == HandshakeStatus::OK);
  auto m2 = sim.rb().onMsg1(m1, sim.now, sim.rng);
  REQUIRE(m2);
  REQUIRE(hs.readMessage(*m2) == HandshakeStatus::OK);
  REQUIRE(hs.writeMessage(m3, sim.rng) == HandshakeStatus::OK);
  CHECK_FALSE(sim.rb().onMsg3(m3, sim.now));
  CHECK(sim.rb().stats().keyMismatches == 1);
  CHECK_FALSE(sim.rb().keys().hasPending());
  CHECK_FALSE(sim.rb().rekeyInProgress());
  // The session carries on, and A's own rekey still completes.
  sim.run(150'000);
  sim.settle();
  CHECK(sim.ra().completedRekeys() + sim.rb().completedRekeys() >= 2);
  CHECK(sim.count.failures + sim.count.undeliverable == 0);
  CHECK(sim.count.delivered == sim.count.sent);
}

TEST_CASE("the K bit alone never promotes pending session keys") {
  Sim sim(fastRekey(), 0, 10, true);
  sim.run(40'400);  // B holds pending from msg3; A cuts over only at 42.2 s
  REQUIRE(sim.rb().keys().hasPending());
  REQUIRE(sim.ra().keys().hasPending());
  const bool kB = sim.rb().keys().kBit();
  // A frame sealed under the old keys that claims the new K: pending is tried
  // first, fails, and current opens it without promoting.
  auto lying = Sim::seal(sim.a, !sim.ra().keys().kBit());
  auto r = Sim::open(sim.b, lying, sim.now);
  CHECK(r.status == OpenStatus::OK);
  CHECK(r.slot == KeySlot::CURRENT);
  CHECK_FALSE(r.promoted);
  CHECK(sim.rb().keys().hasPending());
  CHECK(sim.rb().keys().kBit() == kB);
  // Garbage with the flipped K promotes nothing either.
  std::vector<uint8_t> garbage(FSP_HEADER + 8 + TAG, 0xA5);
  garbage[1] = kB ? 0 : FLAG_K;
  r = Sim::open(sim.b, garbage, sim.now);
  CHECK(r.status != OpenStatus::OK);
  CHECK_FALSE(r.promoted);
  CHECK(sim.rb().keys().hasPending());
  CHECK(sim.rb().completedRekeys() == 0);
  // A genuine frame on the new keys does promote.
  sim.run(43'000);
  CHECK(sim.rb().completedRekeys() == 1);
  CHECK(sim.rb().keys().kBit() != kB);
  CHECK(sim.count.failures + sim.count.undeliverable == 0);
}

TEST_CASE("a fresh pending outranks a new msg1; a stale one does not") {
  Sim sim(fastRekey(), 0, 10, true);
  sim.run(40'400);
  REQUIRE(sim.rb().keys().hasPending());
  auto hs = Handshake::initiator(FipsPattern::XK, sim.suite, sim.a.key->clone(),
                                 sim.b.key->publicKey(), Epoch{1});
  XkMsg1 m1{};
  REQUIRE(hs.writeMessage(m1, sim.rng) == HandshakeStatus::OK);
  CHECK_FALSE(sim.rb().onMsg1(m1, sim.now, sim.rng));
  CHECK(sim.rb().stats().pendingDrops == 1);
  // 90 s later the never-promoted pending no longer vetoes (peer restarted).
  CHECK(sim.rb().onMsg1(m1, sim.now + 91'000, sim.rng));
  CHECK(sim.rb().keys().hasPending());  // arming a handshake keeps it
}

TEST_CASE("malformed session rekey messages are dropped and counted") {
  Sim sim(fastRekey(), 0, 10, true);
  sim.run(40'050);  // A's msg1 is out, B has not seen it yet
  REQUIRE(sim.ra().isRekeyInitiator());
  const std::vector<uint8_t> shortMsg(20, 0x02);
  // A wrong-size msg1 cannot make A yield; a wrong-size msg2 does not end A's cycle.
  CHECK_FALSE(sim.ra().onMsg1(shortMsg, sim.now, sim.rng));
  CHECK_FALSE(sim.ra().onMsg2(shortMsg, sim.now, sim.rng));
  CHECK_FALSE(sim.rb().onMsg3(shortMsg, sim.now));
  CHECK(sim.ra().isRekeyInitiator());
  CHECK(sim.ra().stats().yielded == 0);
  CHECK(sim.ra().stats().badMessages == 2);
  CHECK(sim.rb().stats().badMessages == 1);
  // An unexpected msg3 (A armed nothing as responder) is only counted.
  const XkMsg3 strayMsg3{};
  CHECK_FALSE(sim.ra().onMsg3(strayMsg3, sim.now));
  CHECK(sim.ra().stats().unexpected == 1);
  // A right-size msg2 that does not authenticate is dropped and A keeps
  // waiting for the genuine one, which completes the rekey.
  XkMsg2 forged{};
  forged[0] = 0x02;
  forged[1] = 0x79;  // not necessarily a point: either way it must not authenticate
  CHECK_FALSE(sim.ra().onMsg2(forged, sim.now, sim.rng));
  CHECK(sim.ra().isRekeyInitiator());
  CHECK(sim.ra().stats().badMessages == 3);
  sim.run(45'000);
  sim.settle();
  CHECK(sim.ra().completedRekeys() == 1);
  CHECK(sim.rb().completedRekeys() == 1);
  CHECK(sim.count.delivered == sim.count.sent);
}

}  // namespace
}  // namespace fips::router::noise
