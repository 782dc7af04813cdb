// SPDX-License-Identifier: MIT
// Link engine simulations on virtual time: bring-up, cross-connection,
// dead links, restarts, silent peers, garbage and replays, max_peers, the
// payload_len rule, graceful Disconnect with backoff, msg1 rate limiting,
// ephemeral peers (dialed once, never redialed), disconnect of a
// configured peer (parked until its link comes back and is lost).
// Test code only.
#include "router/link/link-manager.h"

#include <algorithm>
#include <array>

#include <doctest/doctest.h>

#include "router/link/link-test-net.h"

namespace fips::router::link::test {
namespace {

// Both sides agree on one session: indices cross-match.
void checkOneSession(const TestNode& a, const TestNode& b) {
  const auto pa = a.peer(b);
  const auto pb = b.peer(a);
  REQUIRE(pa.has_value());
  REQUIRE(pb.has_value());
  CHECK(pa->ourIndex == pb->theirIndex);
  CHECK(pa->theirIndex == pb->ourIndex);
}

// a → b and b → a data both arrive.
void checkTraffic(TestNet& net, TestNode& a, TestNode& b, uint32_t seq) {
  a.received.clear();
  b.received.clear();
  CHECK(a.sendData(b, seq));
  CHECK(b.sendData(a, seq + 1));
  net.run(100);
  CHECK(b.received == std::vector<uint32_t>{seq});
  CHECK(a.received == std::vector<uint32_t>{seq + 1});
}

TEST_CASE("link: comes up within 2 s, either side dialing") {
  for (int dialer = 0; dialer < 2; ++dialer) {
    TestNet net(11);
    TestNode& a = net.add();
    TestNode& b = net.add();
    net.connect(dialer == 0 ? a : b, dialer == 0 ? b : a);
    net.run(2000);
    CHECK(a.hasPeer(b));
    CHECK(b.hasPeer(a));
    checkOneSession(a, b);
    checkTraffic(net, a, b, 7);
  }
}

TEST_CASE("link: both dial at once ends in exactly one link (50 seeds)") {
  size_t swaps = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    TestNet net(seed);
    net.maxDelayMs = seed % 3 == 0 ? 0 : 40;
    TestNode& a = net.add();
    TestNode& b = net.add();
    net.connect(a, b);
    net.connect(b, a);
    net.run(5000);
    CHECK(a.mgr->peers().size() == 1);
    CHECK(b.mgr->peers().size() == 1);
    checkOneSession(a, b);
    checkTraffic(net, a, b, static_cast<uint32_t>(seed));
    CHECK(a.mgr->counters().linksDown == 0);
    // What was reported (link up, then a swap) is the direction in use.
    CHECK(a.reportedOutbound.at(b.nodeAddr) == a.peer(b)->outbound);
    CHECK(b.reportedOutbound.at(a.nodeAddr) == b.peer(a)->outbound);
    CHECK(a.peer(b)->outbound != b.peer(a)->outbound);
    swaps += a.swaps + b.swaps;
  }
  CHECK(swaps > 0);  // the cross-connection swap did happen in some runs
}

TEST_CASE("link: dead after link_dead_timeout of silence, then re-established") {
  TestNet net(3);
  TestNode& a = net.add();
  TestNode& b = net.add();
  net.connect(a, b);
  net.connect(b, a);
  net.run(20'000);
  REQUIRE(a.hasPeer(b));
  b.silent = true;
  const uint64_t silentAt = net.clock.now;
  while (a.hasPeer(b) && net.clock.now < silentAt + 60'000) net.run(100);
  CHECK_FALSE(a.hasPeer(b));
  CHECK(net.clock.now <= silentAt + 31'000);
  REQUIRE(!a.events.empty());
  CHECK((a.events.back().reason == LinkDownReason::DEAD));
  b.silent = false;
  net.run(60'000);
  CHECK(a.hasPeer(b));
  CHECK(b.hasPeer(a));
  checkOneSession(a, b);
  checkTraffic(net, a, b, 100);
}

TEST_CASE("link: a restarted peer (new epoch) replaces the old link") {
  TestNet net(4);
  TestNode& a = net.add();
  TestNode& b = net.add();
  net.connect(a, b);
  net.connect(b, a);
  net.run(5000);
  REQUIRE(a.hasPeer(b));
  const noise::Epoch oldEpoch = a.peer(b)->remoteEpoch;
  b.restart();
  net.connect(b, a);
  net.run(3000);
  REQUIRE(a.hasPeer(b));
  CHECK(a.peer(b)->remoteEpoch != oldEpoch);
  CHECK(std::any_of(a.events.begin(), a.events.end(), [](const LinkEvent& e) {
    return !e.up && e.reason == LinkDownReason::PEER_RESTART;
  }));
  checkOneSession(a, b);
  checkTraffic(net, a, b, 200);
}

TEST_CASE("link: a peer that completes the handshake and then says nothing is reaped") {
  TestNet net(5);
  TestNode& a = net.add();
  SeededRng rng(99);
  auto stranger = crypto::SecretKey::generate(net.ctx, rng);
  REQUIRE(stranger.has_value());
  noise::Secp256k1Suite suite(net.ctx);
  const LocalIdentity local{&suite, &*stranger, noise::Epoch{9}};
  auto hs =
      startOutbound(local, a.key.publicKey(), a.nodeAddr, 42, a.addr, net.clock.now, 1000, rng);
  REQUIRE(hs.has_value());
  a.mgr->onDatagram(net.addrOf(99), hs->msg1);
  REQUIRE(a.mgr->peers().size() == 1);
  const uint64_t upAt = net.clock.now;
  while (!a.mgr->peers().empty() && net.clock.now < upAt + 60'000) net.run(100);
  CHECK(a.mgr->peers().empty());
  CHECK(net.clock.now <= upAt + 31'000);
  CHECK((a.events.back().reason == LinkDownReason::DEAD));
}

TEST_CASE("link: random datagrams and msg1 replays create nothing and are counted") {
  TestNet net(6);
  TestNode& a = net.add();
  TestNode& b = net.add();
  net.logging = true;
  net.connect(b, a);
  net.run(2000);
  REQUIRE(a.hasPeer(b));
  const auto msg1 =
      std::find_if(net.log.begin(), net.log.end(), [](const Packet& p) { return p.phase() == 1; });
  REQUIRE(msg1 != net.log.end());
  const std::vector<uint8_t> captured = msg1->bytes;
  const uint64_t dropsBefore = a.mgr->counters().droppedTotal();
  std::mt19937_64 gen(1234);
  for (int i = 0; i < 10'000; ++i) {
    std::vector<uint8_t> junk(gen() % 200);
    for (uint8_t& x : junk) x = static_cast<uint8_t>(gen());
    if (!junk.empty() && i % 2 == 0) junk[0] = static_cast<uint8_t>(gen() % 3);  // valid phase
    a.mgr->onDatagram(net.addrOf(static_cast<size_t>(7 + (i % 5))), junk);
  }
  CHECK(a.mgr->counters().droppedTotal() - dropsBefore == 10'000);
  const uint64_t before = a.mgr->counters().droppedTotal() + a.mgr->counters().duplicateMsg1;
  for (int i = 0; i < 1000; ++i) a.mgr->onDatagram(net.addrOf(50), captured);
  const auto& c = a.mgr->counters();
  CHECK(c.droppedTotal() + c.duplicateMsg1 - before == 1000);
  CHECK(c.dropped(DropReason::MSG1_SOURCE_LIMITED) >= 900);
  CHECK(a.mgr->peers().size() == 1);
  CHECK(c.linksUp == 1);
  checkTraffic(net, a, b, 300);
}

TEST_CASE("link: at max_peers a third node is refused before msg2") {
  TestNet net(7);
  LinkConfig small;
  small.maxPeers = 1;
  TestNode& a = net.add(small);
  TestNode& b = net.add();
  TestNode& c = net.add();
  net.connect(b, a);
  net.run(2000);
  REQUIRE(a.hasPeer(b));
  net.logging = true;
  net.connect(c, a);
  net.run(3000);
  CHECK_FALSE(a.hasPeer(c));
  CHECK_FALSE(c.hasPeer(a));
  CHECK(a.mgr->counters().dropped(DropReason::AT_MAX_PEERS) >= 1);
  CHECK(std::none_of(net.log.begin(), net.log.end(), [&](const Packet& p) {
    return p.from == a.index && p.to == c.index && p.phase() == 2;
  }));
}

TEST_CASE("link: payload_len that disagrees with the datagram is dropped at dispatch") {
  TestNet net(8);
  TestNode& a = net.add();
  TestNode& b = net.add();
  net.logging = true;
  net.connect(b, a);
  net.run(2000);
  REQUIRE(b.sendData(a, 1));
  const Packet frame = net.log.back();
  REQUIRE(frame.phase() == 0);
  std::vector<uint8_t> bad = frame.bytes;
  bad[2] = static_cast<uint8_t>(bad[2] + 1);
  a.mgr->onDatagram(b.addr, bad);
  CHECK(a.mgr->counters().dropped(DropReason::BAD_PAYLOAD_LEN) == 1);
  std::vector<uint8_t> badMsg1(fmp::MSG1_SIZE, 0);
  badMsg1[0] = 0x01;
  badMsg1[2] = 111;
  a.mgr->onDatagram(b.addr, badMsg1);
  CHECK(a.mgr->counters().dropped(DropReason::BAD_PAYLOAD_LEN) == 2);
  net.run(100);
  CHECK(a.received == std::vector<uint32_t>{1});  // the genuine frame still counts once
}

TEST_CASE("link: graceful Disconnect → redial with capped exponential backoff") {
  TestNet net(9);
  TestNode& a = net.add();
  TestNode& b = net.add();
  net.connect(a, b);
  net.run(2000);
  REQUIRE(a.hasPeer(b));
  b.mgr->shutdown();
  net.run(100);
  CHECK_FALSE(a.hasPeer(b));
  CHECK((a.events.back().reason == LinkDownReason::REMOTE_DISCONNECT));
  // b stays down; record when a starts each dial.
  std::vector<uint64_t> dials;
  uint64_t seen = a.mgr->counters().handshakesOut;
  const uint64_t downAt = net.clock.now;
  while (net.clock.now < downAt + 2'000'000) {
    net.run(1000);
    if (a.mgr->counters().handshakesOut != seen) {
      seen = a.mgr->counters().handshakesOut;
      dials.push_back(net.clock.now);
    }
  }
  REQUIRE(dials.size() >= 6);
  CHECK(dials[0] - downAt <= 6000);  // first redial after the 5 s base
  for (size_t i = 1; i < dials.size(); ++i) {
    CHECK(dials[i] - dials[i - 1] <= 30'000 + 300'000 + 2000);  // timeout + capped backoff
  }
  CHECK(dials.back() - dials[dials.size() - 2] >= 30'000 + 300'000);  // the cap is reached
  b.restart();
  net.run(330'000);
  CHECK(a.hasPeer(b));
  checkTraffic(net, a, b, 400);
}

TEST_CASE("link: the msg1 token bucket refuses a flood") {
  TestNet net(10);
  LinkConfig open;
  open.maxPeers = 0;
  open.maxLinks = 0;
  TestNode& a = net.add(open);
  noise::Secp256k1Suite suite(net.ctx);
  SeededRng rng(5);
  for (uint32_t i = 0; i < 300; ++i) {
    auto key = crypto::SecretKey::generate(net.ctx, rng);
    REQUIRE(key.has_value());
    const LocalIdentity local{&suite, &*key, noise::Epoch{1}};
    auto hs =
        startOutbound(local, a.key.publicKey(), a.nodeAddr, i, a.addr, net.clock.now, 1000, rng);
    REQUIRE(hs.has_value());
    a.mgr->onDatagram(net.addrOf(100 + i), hs->msg1);
  }
  CHECK(a.mgr->counters().handshakesIn == 100);
  CHECK(a.mgr->counters().dropped(DropReason::MSG1_GLOBAL_LIMITED) == 200);
  CHECK(a.mgr->peers().size() == 100);
}

TEST_CASE("link: addStaticPeer refuses fd00::/8, our own key and duplicates") {
  TestNet net(12);
  TestNode& a = net.add();
  TestNode& b = net.add();
  std::array<uint8_t, 16> mesh{};
  mesh[0] = 0xFD;
  mesh[15] = 1;
  CHECK_FALSE(a.mgr->addStaticPeer(b.publicKey, {*TransportAddr::make(1, mesh, 2121)}));
  CHECK_FALSE(a.mgr->addStaticPeer(a.publicKey, {b.addr}));
  CHECK(a.mgr->addStaticPeer(b.publicKey, {b.addr}));
  CHECK_FALSE(a.mgr->addStaticPeer(b.publicKey, {b.addr}));
  net.run(2000);
  CHECK(a.hasPeer(b));
  CHECK(a.mgr->removePeer(b.nodeAddr));
  net.run(100);
  CHECK_FALSE(b.hasPeer(a));
  CHECK((b.events.back().reason == LinkDownReason::REMOTE_DISCONNECT));
}

TEST_CASE("link: setStaticPeerAddrs adds a peer, then changes where the next dial goes") {
  TestNet net(13);
  TestNode& a = net.add();
  TestNode& b = net.add();
  TestNode& c = net.add();
  std::array<uint8_t, 16> mesh{};
  mesh[0] = 0xFD;
  CHECK_FALSE(a.mgr->setStaticPeerAddrs(b.publicKey, {*TransportAddr::make(1, mesh, 2121)}));
  CHECK_FALSE(a.mgr->setStaticPeerAddrs(b.publicKey, {}));
  // First known at c's address (a stale answer): the dial reaches nobody
  // who holds b's key.
  CHECK(a.mgr->setStaticPeerAddrs(b.publicKey, {c.addr}));
  net.run(1000);
  CHECK_FALSE(a.hasPeer(b));
  CHECK_FALSE(a.mgr->setStaticPeerAddrs(b.publicKey, {b.addr, *TransportAddr::make(1, mesh, 1)}));
  CHECK(a.mgr->setStaticPeerAddrs(b.publicKey, {b.addr}));
  // The dial under way keeps its address until it times out (30 s); the
  // redial after the backoff (2 × 5 s) goes to the new one.
  net.run(45000);
  CHECK(a.hasPeer(b));
  checkOneSession(a, b);
  // An update while up leaves the link alone.
  CHECK(a.mgr->setStaticPeerAddrs(b.publicKey, {c.addr}));
  net.run(5000);
  CHECK(a.hasPeer(b));
  CHECK(a.mgr->counters().linksDown == 0);
}

TEST_CASE("link: dialState follows a dial: handshake, retry backoff, none once up or removed") {
  TestNet net(17);
  TestNode& a = net.add();
  TestNode& b = net.add();
  TestNode& c = net.add();
  b.silent = true;
  c.silent = true;
  CHECK(a.mgr->dialState(b.nodeAddr) == DialState::NONE);
  net.connect(a, b);  // static: redialed
  CHECK(a.mgr->addEphemeralPeer(c.publicKey, c.addr));
  CHECK(a.mgr->dialState(b.nodeAddr) == DialState::HANDSHAKE);
  CHECK(a.mgr->dialState(c.nodeAddr) == DialState::HANDSHAKE);
  net.run(31'000);  // past handshake_timeout (30 s): b waits to redial, c is forgotten
  CHECK(a.mgr->dialState(b.nodeAddr) == DialState::WAITING);
  CHECK(a.mgr->dialState(c.nodeAddr) == DialState::NONE);
  CHECK(a.mgr->removePeer(b.nodeAddr));  // cancels the dial and its retries
  CHECK(a.mgr->dialState(b.nodeAddr) == DialState::NONE);
  const uint64_t dials = a.mgr->counters().handshakesOut;
  b.silent = false;
  net.run(120'000);
  CHECK(a.mgr->counters().handshakesOut == dials);
  CHECK_FALSE(a.hasPeer(b));
  net.connect(a, b);
  net.run(2000);
  REQUIRE(a.hasPeer(b));
  CHECK(a.mgr->dialState(b.nodeAddr) == DialState::NONE);
}

TEST_CASE("link: an ephemeral peer is dialed once and never redialed") {
  TestNet net(13);
  TestNode& a = net.add();
  TestNode& b = net.add();
  b.silent = true;  // the first dial times out
  CHECK(a.mgr->addEphemeralPeer(b.publicKey, b.addr));
  CHECK(a.mgr->pendingHandshakes() == 1);
  net.run(40'000);  // past handshake_timeout (30 s)
  CHECK(a.mgr->pendingHandshakes() == 0);
  const uint64_t dials = a.mgr->counters().handshakesOut;
  CHECK(dials == 1);
  b.silent = false;
  net.run(120'000);
  CHECK(a.mgr->counters().handshakesOut == dials);  // forgotten, not redialed
  CHECK_FALSE(a.hasPeer(b));

  // Up, then lost: forgotten too.
  CHECK(a.mgr->addEphemeralPeer(b.publicKey, b.addr));
  net.run(2000);
  REQUIRE(a.hasPeer(b));
  b.mgr->shutdown();
  net.run(100);
  CHECK_FALSE(a.hasPeer(b));
  const uint64_t after = a.mgr->counters().handshakesOut;
  b.restart();
  net.run(120'000);
  CHECK(a.mgr->counters().handshakesOut == after);
  CHECK(a.mgr->addEphemeralPeer(b.publicKey, b.addr));  // a new connect is accepted
}

TEST_CASE("link: a disconnected configured peer is parked, then redialed after a later loss") {
  TestNet net(19);
  TestNode& a = net.add();
  TestNode& b = net.add();
  net.connect(a, b);  // configured on a only
  net.run(2000);
  REQUIRE(a.hasPeer(b));
  CHECK(a.mgr->removePeer(b.nodeAddr));  // fipsctl disconnect
  net.run(100);
  CHECK_FALSE(b.hasPeer(a));
  CHECK(a.mgr->dialState(b.nodeAddr) == DialState::NONE);
  const uint64_t dials = a.mgr->counters().handshakesOut;
  net.run(120'000);
  CHECK(a.mgr->counters().handshakesOut == dials);  // parked: not redialed
  CHECK(a.mgr->retries().empty());

  // The peer dials back, then goes away: a redials it (the reference looks
  // the config peer up again at every link loss).
  CHECK(b.mgr->addEphemeralPeer(a.publicKey, a.addr));
  net.run(2000);
  REQUIRE(a.hasPeer(b));
  b.mgr->shutdown();
  net.run(100);
  CHECK_FALSE(a.hasPeer(b));
  b.restart();
  net.run(10'000);  // first redial after the 5 s base
  CHECK(a.hasPeer(b));
  CHECK(a.mgr->counters().handshakesOut > dials);

  // connect (ephemeral) of a parked configured peer dials it and keeps it configured.
  CHECK(a.mgr->removePeer(b.nodeAddr));
  net.run(100);
  REQUIRE_FALSE(a.hasPeer(b));
  CHECK(a.mgr->addEphemeralPeer(b.publicKey, b.addr));
  net.run(2000);
  REQUIRE(a.hasPeer(b));
  b.mgr->shutdown();
  net.run(100);
  b.restart();
  net.run(10'000);
  CHECK(a.hasPeer(b));
}

TEST_CASE("link: a msg1 flood from one source leaves room for a new peer (#25)") {
  TestNet net(13);
  TestNode& a = net.add();
  TestNode& b = net.add();
  TestNode& c = net.add();
  net.connect(b, a);
  net.run(2000);
  REQUIRE(a.hasPeer(b));
  // 200 distinct msg1s (fresh keys and ephemerals), replayed from one
  // address at 10,000 a second (100 per 10 ms step of the net) for 3 s.
  noise::Secp256k1Suite suite(net.ctx);
  SeededRng rng(6);
  std::vector<std::vector<uint8_t>> flood;
  for (uint32_t i = 0; i < 200; ++i) {
    auto key = crypto::SecretKey::generate(net.ctx, rng);
    REQUIRE(key.has_value());
    const LocalIdentity local{&suite, &*key, noise::Epoch{2}};
    auto hs =
        startOutbound(local, a.key.publicKey(), a.nodeAddr, i, a.addr, net.clock.now, 1000, rng);
    REQUIRE(hs.has_value());
    flood.emplace_back(hs->msg1.begin(), hs->msg1.end());
  }
  const TransportAddr attacker = net.addrOf(200);
  size_t sent = 0;
  uint64_t connectAt = 0;
  std::optional<uint64_t> linkedAfter;
  for (int step = 0; step < 300; ++step) {
    for (int i = 0; i < 100; ++i) a.mgr->onDatagram(attacker, flood[sent++ % flood.size()]);
    if (step == 50) {
      connectAt = net.clock.now;
      net.connect(c, a);
    }
    net.run(10);
    if (connectAt != 0 && !linkedAfter && a.hasPeer(c) && c.hasPeer(a)) {
      linkedAfter = net.clock.now - connectAt;
    }
  }
  REQUIRE(linkedAfter.has_value());
  CHECK(*linkedAfter <= 100);  // its first msg1 is admitted
  const auto& counters = a.mgr->counters();
  // 4 at once, then 1 a second: the attacker's own bucket, not the global one.
  CHECK(counters.dropped(DropReason::MSG1_SOURCE_LIMITED) >= 29'990);
  CHECK(counters.dropped(DropReason::MSG1_GLOBAL_LIMITED) == 0);
  CHECK(counters.handshakesIn <= 1 + 4 + 3 + 1);
  CHECK(a.hasPeer(b));
  checkTraffic(net, a, b, 300);
}

}  // namespace
}  // namespace fips::router::link::test
