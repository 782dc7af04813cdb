// SPDX-License-Identifier: MIT
// Hitless link rekey through the whole engine on virtual time: forced
// rekeys with traffic, loss and reordering lose no deliverable message and
// never drop the link; simultaneous rekeys end in one session; a rekey whose
// msg2 never arrives leaves the link up. Test code only.
#include <algorithm>
#include <set>

#include <doctest/doctest.h>

#include "router/link/link-manager.h"
#include "router/link/link-test-net.h"

namespace fips::router::link::test {
namespace {

// Sends one data message each way every stepMs for totalMs; returns how many
// were sent in all.
uint32_t pump(TestNet& net, TestNode& a, TestNode& b, uint64_t totalMs, uint64_t stepMs,
              uint32_t& seq) {
  uint32_t sent = 0;
  for (uint64_t t = 0; t < totalMs; t += stepMs) {
    if (a.sendData(b, seq++)) ++sent;
    if (b.sendData(a, seq++)) ++sent;
    net.run(stepMs);
  }
  return sent;
}

uint64_t rekeysOf(const TestNode& n, const TestNode& other) {
  const auto p = n.peer(other);
  return p ? p->rekeys : 0;
}

void checkOneSession(const TestNode& a, const TestNode& b) {
  const auto pa = a.peer(b);
  const auto pb = b.peer(a);
  REQUIRE(pa.has_value());
  REQUIRE(pb.has_value());
  CHECK(pa->ourIndex == pb->theirIndex);
  CHECK(pa->theirIndex == pb->ourIndex);
}

TEST_CASE("rekey: forced rekeys under traffic, loss and reordering lose nothing deliverable") {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    TestNet net(seed);
    LinkConfig config;
    config.rekeyAfterSecs = 16;  // 1..31 s with jitter; responders accept from 30 s of age
    TestNode& a = net.add(config);
    TestNode& b = net.add(config);
    net.connect(a, b);
    net.run(2000);
    REQUIRE(a.hasPeer(b));
    std::mt19937_64 loss(seed * 77);
    net.maxDelayMs = 30;
    net.rule = [&loss](const Packet& p) {
      const uint64_t roll = loss() % 100;
      if (p.data)
        return roll < 3 ? Verdict::DROP : roll < 5 ? Verdict::DUPLICATE : Verdict::DELIVER;
      if (p.phase() != 0) return roll < 15 ? Verdict::DROP : Verdict::DELIVER;
      return Verdict::DELIVER;
    };
    uint32_t seq = 0;
    const uint32_t sent = pump(net, a, b, 400'000, 200, seq);
    net.rule = nullptr;
    net.run(1000);
    CHECK(a.mgr->counters().linksDown == 0);
    CHECK(b.mgr->counters().linksDown == 0);
    CHECK(rekeysOf(a, b) >= 5);
    const std::set<uint32_t> gotA(a.received.begin(), a.received.end());
    const std::set<uint32_t> gotB(b.received.begin(), b.received.end());
    CHECK(gotA.size() + gotB.size() == sent - net.dataDropped);
    CHECK(a.received.size() + b.received.size() >= gotA.size() + gotB.size());
    checkOneSession(a, b);
  }
}

TEST_CASE("rekey: both sides rekeying at once end with one session") {
  TestNet net(21);
  LinkConfig config;
  config.rekeyAfterSecs = 100'000;
  config.rekeyAfterMessages = 200;  // both counters cross it on the same tick
  TestNode& a = net.add(config);
  TestNode& b = net.add(config);
  net.connect(a, b);
  net.run(2000);
  REQUIRE(a.hasPeer(b));
  uint32_t seq = 0;
  pump(net, a, b, 120'000, 100, seq);
  a.received.clear();
  b.received.clear();
  CHECK(a.sendData(b, 1'000'000));
  CHECK(b.sendData(a, 1'000'001));
  net.run(100);
  CHECK(b.received == std::vector<uint32_t>{1'000'000});
  CHECK(a.received == std::vector<uint32_t>{1'000'001});
  CHECK(rekeysOf(a, b) >= 1);
  CHECK(rekeysOf(a, b) == rekeysOf(b, a));
  const TestNode& smaller = a.nodeAddr < b.nodeAddr ? a : b;
  CHECK(smaller.mgr->counters().dropped(DropReason::REKEY_REFUSED) >= 1);
  CHECK(a.mgr->counters().linksDown == 0);
  CHECK(b.mgr->counters().linksDown == 0);
  checkOneSession(a, b);
}

TEST_CASE("rekey: a rekey whose msg2 is always lost does not kill the link") {
  TestNet net(22);
  LinkConfig config;
  config.rekeyAfterSecs = 16;
  TestNode& a = net.add(config);
  TestNode& b = net.add(config);
  net.connect(a, b);
  net.run(2000);
  REQUIRE(a.hasPeer(b));
  net.rule = [](const Packet& p) { return p.phase() == 2 ? Verdict::DROP : Verdict::DELIVER; };
  uint32_t seq = 0;
  const uint32_t sent = pump(net, a, b, 300'000, 500, seq);
  net.run(1000);
  CHECK(a.mgr->counters().linksDown == 0);
  CHECK(b.mgr->counters().linksDown == 0);
  CHECK(a.received.size() + b.received.size() == sent);
  CHECK(rekeysOf(a, b) == 0);
  checkOneSession(a, b);
}

TEST_CASE("rekey: a silent peer is still reaped while nothing is in flight") {
  TestNet net(23);
  LinkConfig config;
  config.rekeyAfterSecs = 16;
  TestNode& a = net.add(config);
  TestNode& b = net.add(config);
  net.connect(a, b);
  net.run(100'000);
  REQUIRE(a.hasPeer(b));
  b.silent = true;
  net.run(80'000);  // a's own rekey may suppress the timer only while its resends last
  CHECK_FALSE(a.hasPeer(b));
}

}  // namespace
}  // namespace fips::router::link::test

namespace fips::router::link::test {
namespace {

// What integration.rekey runs between real processes: rekey.after_secs at
// its floor and heartbeats every second. A rekey msg1 that reaches a
// session younger than 30 s is answered as a duplicate with the stored
// handshake msg2 (as the reference does); the initiator drops that as
// unmatched. No established frame is ever refused.
TEST_CASE("rekey: at after_secs 16 with heartbeats only, nothing but stale msg2s is dropped") {
  TestNet net(5);
  LinkConfig config;
  config.rekeyAfterSecs = 16;
  config.heartbeatIntervalSecs = 1;
  config.linkDeadTimeoutSecs = 6;
  TestNode& a = net.add(config);
  TestNode& b = net.add(config);
  net.connect(a, b);
  net.run(200'000);
  REQUIRE(a.hasPeer(b));
  CHECK(rekeysOf(a, b) >= 4);
  CHECK(a.mgr->counters().linksDown == 0);
  for (const TestNode* n : {&a, &b}) {
    const LinkCounters& c = n->mgr->counters();
    CHECK(c.droppedTotal() ==
          c.dropped(DropReason::UNMATCHED_MSG2) + c.dropped(DropReason::REKEY_REFUSED));
  }
  CHECK(a.mgr->counters().dropped(DropReason::UNMATCHED_MSG2) > 0);
}

// Runs two nodes at after_secs 16 with 5 % of every datagram lost (from the
// first msg1, whose first msg2 is always lost, if lossFromStart; else once
// the link is up, as integration.rekey did), with the seed's one-way delay,
// reordering and tick phases, for 200 s. Returns A's msg1 resends prompted
// by frames.
uint64_t rekeyUnderLoss(uint64_t seed, bool lossFromStart) {
  TestNet net(seed);
  LinkConfig config;
  config.rekeyAfterSecs = 16;
  config.heartbeatIntervalSecs = 1;
  config.linkDeadTimeoutSecs = 6;
  TestNode& a = net.add(config);
  TestNode& b = net.add(config);
  std::mt19937_64 gen(seed * 1337);
  a.nextTickMs += (gen() % 100) * 10;  // the two routers tick out of phase
  b.nextTickMs += (gen() % 100) * 10;
  const auto lossy = [&gen](const Packet&) {
    return gen() % 100 < 5 ? Verdict::DROP : Verdict::DELIVER;
  };
  bool msg2Lost = false;
  if (lossFromStart) {
    net.rule = [&](const Packet& p) {
      if (p.phase() != 2 || msg2Lost) return lossy(p);
      msg2Lost = true;
      return Verdict::DROP;
    };
  }
  net.connect(a, b);
  net.run(lossFromStart ? 8000 : 3000);
  REQUIRE(a.hasPeer(b));
  net.fixedDelayMs = (seed % 4) * 70;
  net.maxDelayMs = (seed % 3) * 20;
  net.rule = lossy;
  net.run(200'000);
  CHECK(rekeysOf(a, b) >= 3);
  CHECK(a.mgr->counters().linksDown == 0);
  CHECK(b.mgr->counters().linksDown == 0);
  for (const TestNode* n : {&a, &b}) {
    const LinkCounters& c = n->mgr->counters();
    CHECK(c.droppedTotal() == c.dropped(DropReason::UNMATCHED_MSG2) +
                                  c.dropped(DropReason::REKEY_REFUSED) +
                                  c.dropped(DropReason::HANDSHAKE_PENDING));
  }
  // Frames can beat a lost msg2 only at link-up, and only towards A.
  CHECK(b.mgr->counters().dropped(DropReason::HANDSHAKE_PENDING) == 0);
  if (!lossFromStart) CHECK(a.mgr->counters().dropped(DropReason::HANDSHAKE_PENDING) == 0);
  return a.mgr->counters().msg1FrameResends;
}

// The same with 5 % of every datagram lost once the link is up, as
// integration.rekey's nft rule, over many seeds, one-way delays, reordering
// and tick phases: every rekey still completes without one established frame
// refused (no unknown index, decrypt or replay drop) on either side.
TEST_CASE("rekey: at after_secs 16 with 5 % loss of everything, no established frame is refused") {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    rekeyUnderLoss(seed, false);
  }
}

// And with the loss from the first msg1, whose msg2 is lost: that costs
// only the frames that beat the msg2 (handshake_pending), nothing after.
// The responder's first frame (a heartbeat on its tick) comes before the
// initiator's 1 s resend timer in some seeds, which then resend on it.
TEST_CASE("rekey: 5 % loss from link-up on refuses only frames that beat a lost msg2") {
  uint64_t frameResends = 0;
  for (uint64_t seed = 41; seed <= 60; ++seed) {
    CAPTURE(seed);
    frameResends += rekeyUnderLoss(seed, true);
  }
  CHECK(frameResends > 0);
}

// A lost msg2 at link-up: the responder's link is up as it sends msg2 and
// it sends at once, to the index of the initiator's msg1, which has no keys
// for those frames yet. The reference drops them ("Unknown session index")
// until its msg1 resend timer (1 s) brings the stored msg2 back; here the
// first such frame makes the initiator resend msg1 at once, so the link is
// up one round trip later. Only the frames that beat the msg2 are lost.
TEST_CASE("link up: after a lost msg2 the responder's first frame brings the link up in one RTT") {
  TestNet net(6);
  net.fixedDelayMs = 20;  // RTT 40 ms, delivery in 10 ms steps
  LinkConfig config;
  config.heartbeatIntervalSecs = 1;
  TestNode& a = net.add(config);
  TestNode& b = net.add(config);
  uint32_t msg2Lost = 0;
  uint32_t msg1Sent = 0;
  net.rule = [&](const Packet& p) {
    if (p.phase() == 1) ++msg1Sent;
    if (p.phase() != 2 || msg2Lost > 0) return Verdict::DELIVER;
    ++msg2Lost;
    return Verdict::DROP;
  };
  net.connect(a, b);
  uint64_t waited = 0;
  while (!b.hasPeer(a) && waited < 500) {
    net.run(10);
    waited += 10;
  }
  REQUIRE(b.hasPeer(a));
  REQUIRE(msg2Lost == 1);
  REQUIRE_FALSE(a.hasPeer(b));
  uint32_t seq = 0;
  CHECK(b.sendData(a, seq++));
  uint64_t upAfterMs = 0;
  while (!a.hasPeer(b) && upAfterMs < 1000) {
    net.run(10);
    upAfterMs += 10;
  }
  REQUIRE(a.hasPeer(b));
  // The frame's one-way trip, msg1 back, msg2 back: 60 ms, and the steps.
  CHECK(upAfterMs <= 100);
  CHECK(msg1Sent == 2);  // the first and one resend; the timer's was not needed
  const LinkCounters& c = a.mgr->counters();
  CHECK(c.msg1FrameResends == 1);
  CHECK(c.dropped(DropReason::HANDSHAKE_PENDING) == 1);
  CHECK(c.dropped(DropReason::UNKNOWN_INDEX) == 0);
  CHECK(b.mgr->counters().duplicateMsg1 == 1);
  CHECK(b.sendData(a, seq++));
  net.run(1000);
  CHECK(a.received == std::vector<uint32_t>{1});
  CHECK(c.droppedTotal() == 1);
  CHECK(c.linksDown == 0);
}

// A burst of frames before the msg2 costs one msg1, and a responder whose
// answers keep getting lost is asked at most handshake_max_resends times.
TEST_CASE("link up: msg1 resends prompted by frames are rate limited and capped") {
  TestNet net(7);
  LinkConfig config;
  config.heartbeatIntervalSecs = 1;
  TestNode& a = net.add(config);
  TestNode& b = net.add(config);
  net.rule = [](const Packet& p) { return p.phase() == 2 ? Verdict::DROP : Verdict::DELIVER; };
  net.connect(a, b);
  net.run(20);
  REQUIRE(b.hasPeer(a));
  uint32_t seq = 0;
  for (int i = 0; i < 5; ++i) CHECK(b.sendData(a, seq++));
  net.run(20);
  CHECK(a.mgr->counters().msg1FrameResends == 1);
  for (int i = 0; i < 40; ++i) {
    CHECK(b.sendData(a, seq++));
    net.run(100);
  }
  // 4 s of frames every 100 ms: one resend per 200 ms gap, capped at 5.
  CHECK(a.mgr->counters().msg1FrameResends == config.handshakeMaxResends);
  CHECK(a.mgr->counters().dropped(DropReason::HANDSHAKE_PENDING) >= 45);  // and heartbeats
  CHECK_FALSE(a.hasPeer(b));
}

}  // namespace
}  // namespace fips::router::link::test
