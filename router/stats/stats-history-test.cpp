// SPDX-License-Identifier: MIT
// StatsHistory on fixed ticks (the reference's stats_history tests, where
// they apply): window and granularity selection, front padding, fast ring
// wrap-around, counter deltas, minute aggregation by LAST/SUM/MEAN with
// gaps skipped, per-peer alignment, absence gaps, counter resets,
// eviction after 24 h and the tracked-peer cap.
#include "router/stats/stats-history.h"

#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/nip19.h"

namespace fips::router::stats {
namespace {

NodeSample snap(uint64_t t) {
  NodeSample s;
  s.meshSize = 10 + t;
  s.treeDepth = 2;
  s.peerCount = 3;
  s.parentSwitchesTotal = t;
  s.bytesInTotal = 100 * t;
  s.bytesOutTotal = 200 * t;
  s.packetsInTotal = t;
  s.packetsOutTotal = 2 * t;
  s.lossRate = 0.01 * static_cast<double>(t);
  s.activeSessions = t;
  return s;
}

crypto::PublicKey keyOf(uint8_t tag) {
  static const crypto::Secp256k1Context ctx;
  std::array<uint8_t, 32> bytes{};
  bytes[31] = tag;
  return crypto::SecretKey::fromBytes(ctx, bytes)->publicKey();
}

PeerSample peer(uint8_t tag, uint64_t t) {
  const auto key = keyOf(tag);
  PeerSample p(identity::NodeAddr::fromPublicKey(key), key);
  p.srttMs = 10.0 + static_cast<double>(t);
  p.lossRate = 0.01 * static_cast<double>(t);
  p.bytesInTotal = 50 * t;
  p.bytesOutTotal = 75 * t;
  p.packetsInTotal = t;
  p.packetsOutTotal = 2 * t;
  p.ecnCeTotal = 0;
  return p;
}

identity::NodeAddr addrOf(uint8_t tag) {
  return identity::NodeAddr::fromPublicKey(keyOf(tag));
}

uint64_t ms(uint64_t secs) {
  return 1'000'000 + secs * 1000;
}

void tickNoPeers(StatsHistory& h, uint64_t t) {
  h.tick(ms(t), snap(t), {});
}

bool allNan(const std::vector<double>& v, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i) {
    if (!std::isnan(v[i])) return false;
  }
  return true;
}

TEST_CASE("fast ring: the newest window, oldest first") {
  StatsHistory h;
  for (uint64_t i = 0; i < 10; ++i) tickNoPeers(h, i);
  const Series s = h.query(NodeMetric::MESH_SIZE, 5, Granularity::FAST);
  CHECK(s.metric == "mesh_size");
  CHECK(s.unit == "nodes");
  CHECK(s.granularitySeconds == 1);
  CHECK(s.values == std::vector<double>{15, 16, 17, 18, 19});
  CHECK(h.ticks() == 10);
}

TEST_CASE("fast ring wraps at its capacity of an hour") {
  StatsHistory h;
  for (uint64_t i = 0; i < 3610; ++i) tickNoPeers(h, i);
  const Series s = h.query(NodeMetric::MESH_SIZE, 2 * FAST_RING_CAPACITY, Granularity::FAST);
  REQUIRE(s.values.size() == FAST_RING_CAPACITY);
  CHECK(s.values.front() == 20);
  CHECK(s.values.back() == 3619);
}

TEST_CASE("a short ring is padded in front with gaps") {
  StatsHistory h;
  for (uint64_t i = 0; i < 3; ++i) tickNoPeers(h, i);
  const Series s = h.query(NodeMetric::MESH_SIZE, 10, Granularity::FAST);
  REQUIRE(s.values.size() == 10);
  CHECK(allNan(s.values, 0, 7));
  CHECK(s.values[7] == 10);
  CHECK(s.values[9] == 12);
  // A window below one sample is empty.
  CHECK(h.query(NodeMetric::MESH_SIZE, 59, Granularity::SLOW).values.empty());
}

TEST_CASE("node counters are per-tick deltas, the first 0") {
  StatsHistory h;
  const uint64_t totals[] = {0, 0, 2, 5};
  for (uint64_t i = 0; i < 4; ++i) {
    NodeSample s = snap(i);
    s.parentSwitchesTotal = totals[i];
    h.tick(ms(i), s, {});
  }
  const Series s = h.query(NodeMetric::PARENT_SWITCHES, 4, Granularity::FAST);
  CHECK(s.values == std::vector<double>{0, 0, 2, 3});
  CHECK(h.query(NodeMetric::BYTES_OUT, 2, Granularity::FAST).values ==
        std::vector<double>{200, 200});
}

TEST_CASE("minute aggregation: LAST, MEAN and SUM") {
  StatsHistory h;
  for (uint64_t i = 0; i < 60; ++i) {
    NodeSample s = snap(i);
    s.parentSwitchesTotal = i;  // one switch per tick after the first
    h.tick(ms(i), s, {});
  }
  const Series last = h.query(NodeMetric::MESH_SIZE, 300, Granularity::SLOW);
  REQUIRE(last.values.size() == 5);
  CHECK(allNan(last.values, 0, 4));
  CHECK(last.values[4] == 69);
  CHECK(last.granularitySeconds == 60);
  const Series mean = h.query(NodeMetric::LOSS_RATE, 60, Granularity::SLOW);
  REQUIRE(mean.values.size() == 1);
  CHECK(mean.values[0] == doctest::Approx(0.295));
  const Series sum = h.query(NodeMetric::PARENT_SWITCHES, 60, Granularity::SLOW);
  CHECK(sum.values == std::vector<double>{59});
  // Nothing folds before the minute is full.
  tickNoPeers(h, 60);
  CHECK(h.query(NodeMetric::MESH_SIZE, 120, Granularity::SLOW).values.size() == 2);
  CHECK(std::isnan(h.query(NodeMetric::MESH_SIZE, 120, Granularity::SLOW).values[0]));
}

TEST_CASE("values read back as their shortest decimal form") {
  StatsHistory h;
  NodeSample s = snap(1);
  s.lossRate = 0.01;
  h.tick(ms(0), s, {});
  CHECK(h.query(NodeMetric::LOSS_RATE, 1, Granularity::FAST).values[0] == 0.01);
}

TEST_CASE("an unmeasured gauge is a gap, and a missing mesh size is 0") {
  StatsHistory h;
  NodeSample s = snap(1);
  s.lossRate.reset();
  s.meshSize.reset();
  h.tick(ms(0), s, {});
  CHECK(std::isnan(h.query(NodeMetric::LOSS_RATE, 1, Granularity::FAST).values[0]));
  CHECK(h.query(NodeMetric::MESH_SIZE, 1, Granularity::FAST).values[0] == 0);
}

TEST_CASE("a new peer lines up with the node rings") {
  StatsHistory h;
  for (uint64_t i = 0; i < 5; ++i) tickNoPeers(h, i);
  const PeerSample a = peer(1, 5);
  h.tick(ms(5), snap(5), {&a, 1});
  const auto s = h.peerQuery(addrOf(1), PeerMetric::SRTT_MS, 60, Granularity::FAST);
  REQUIRE(s);
  REQUIRE(s->values.size() == 60);
  CHECK(allNan(s->values, 0, 59));
  CHECK(s->values[59] == 15);
  CHECK_FALSE(h.peerQuery(addrOf(2), PeerMetric::SRTT_MS, 60, Granularity::FAST));
  CHECK(h.tracks(addrOf(1)));
}

TEST_CASE("an absent peer gets gaps") {
  StatsHistory h;
  for (uint64_t i = 0; i < 3; ++i) {
    const PeerSample a = peer(1, i);
    h.tick(ms(i), snap(i), {&a, 1});
  }
  for (uint64_t i = 3; i < 5; ++i) tickNoPeers(h, i);
  const auto s = h.peerQuery(addrOf(1), PeerMetric::SRTT_MS, 60, Granularity::FAST);
  REQUIRE(s);
  CHECK(allNan(s->values, 0, 55));
  CHECK(s->values[55] == 10);
  CHECK(s->values[57] == 12);
  CHECK(allNan(s->values, 58, 60));
  const auto peers = h.trackedPeers();
  REQUIRE(peers.size() == 1);
  CHECK_FALSE(peers[0].active);
  CHECK(peers[0].firstSeenSecsAgo == 4);
  CHECK(peers[0].lastContactSecsAgo == 2);
  CHECK(peers[0].npub == identity::encodeNpub(keyOf(1)));
  CHECK(peers[0].displayName == identity::shortNpub(keyOf(1)));
}

TEST_CASE("a peer counter that goes down is a gap, then counts from there") {
  StatsHistory h;
  const uint64_t totals[] = {100, 200, 300, 50, 80};
  for (uint64_t i = 0; i < 5; ++i) {
    PeerSample a = peer(1, i);
    a.bytesInTotal = totals[i];
    h.tick(ms(i), snap(i), {&a, 1});
  }
  const auto s = h.peerQuery(addrOf(1), PeerMetric::BYTES_IN, 5, Granularity::FAST);
  REQUIRE(s);
  CHECK(std::isnan(s->values[0]));
  CHECK(s->values[1] == 100);
  CHECK(s->values[2] == 100);
  CHECK(std::isnan(s->values[3]));
  CHECK(s->values[4] == 30);
}

TEST_CASE("an unmeasured peer metric is a gap") {
  StatsHistory h;
  for (uint64_t i = 0; i < 3; ++i) {
    PeerSample a = peer(1, i);
    a.srttMs.reset();
    a.packetsInTotal.reset();
    h.tick(ms(i), snap(i), {&a, 1});
  }
  auto srtt = h.peerQuery(addrOf(1), PeerMetric::SRTT_MS, 3, Granularity::FAST);
  auto packets = h.peerQuery(addrOf(1), PeerMetric::PACKETS_IN, 3, Granularity::FAST);
  CHECK(allNan(srtt->values, 0, 3));
  CHECK(allNan(packets->values, 0, 3));
}

TEST_CASE("the minute mean skips gaps; a minute of gaps is a gap") {
  StatsHistory h;
  for (uint64_t i = 0; i < 60; ++i) {
    if (i % 2 == 0) {
      const PeerSample a = peer(1, i);
      h.tick(ms(i), snap(i), {&a, 1});
    } else {
      tickNoPeers(h, i);
    }
  }
  auto s = h.peerQuery(addrOf(1), PeerMetric::SRTT_MS, 60, Granularity::SLOW);
  REQUIRE(s);
  CHECK(s->values[0] == doctest::Approx(39.0));
  for (uint64_t i = 60; i < 120; ++i) tickNoPeers(h, i);
  s = h.peerQuery(addrOf(1), PeerMetric::SRTT_MS, 120, Granularity::SLOW);
  CHECK(s->values[0] == doctest::Approx(39.0));
  CHECK(std::isnan(s->values[1]));
}

TEST_CASE("a peer absent for 24 hours is forgotten") {
  StatsHistory h;
  const PeerSample a = peer(1, 0);
  h.tick(ms(0), snap(0), {&a, 1});
  for (uint64_t i = 1; i * 60 < PEER_EVICTION_SECS; ++i) tickNoPeers(h, i * 60);
  CHECK(h.tracks(addrOf(1)));
  tickNoPeers(h, PEER_EVICTION_SECS);
  CHECK_FALSE(h.tracks(addrOf(1)));
  CHECK(h.trackedPeers().empty());
}

TEST_CASE("stats peers: active first, then by name") {
  StatsHistory h;
  const std::string alias = "zeta";
  PeerSample a = peer(1, 0);
  a.alias = &alias;
  const PeerSample b = peer(2, 0);
  const PeerSample c = peer(3, 0);
  std::vector<PeerSample> all{a, b, c};
  h.tick(ms(0), snap(0), all);
  std::vector<PeerSample> some{a};
  h.tick(ms(1), snap(1), some);
  const auto peers = h.trackedPeers();
  REQUIRE(peers.size() == 3);
  CHECK(peers[0].displayName == "zeta");
  CHECK(peers[0].active);
  CHECK_FALSE(peers[1].active);
  CHECK(peers[1].displayName < peers[2].displayName);
}

TEST_CASE("past MAX_TRACKED_PEERS the longest-absent peer makes room") {
  StatsHistory h;
  std::vector<PeerSample> first;
  for (size_t i = 0; i < MAX_TRACKED_PEERS; ++i)
    first.push_back(peer(static_cast<uint8_t>(i + 1), 0));
  h.tick(ms(0), snap(0), first);
  CHECK(h.trackedPeers().size() == MAX_TRACKED_PEERS);
  // All active: a newcomer is not tracked.
  std::vector<PeerSample> withNew = first;
  withNew.push_back(peer(200, 1));
  h.tick(ms(1), snap(1), withNew);
  CHECK_FALSE(h.tracks(addrOf(200)));
  // Peer 1 leaves; next tick the newcomer takes its place.
  std::vector<PeerSample> without1(withNew.begin() + 1, withNew.end() - 1);
  h.tick(ms(2), snap(2), without1);
  const PeerSample newcomer = peer(200, 3);
  h.tick(ms(3), snap(3), {&newcomer, 1});
  CHECK(h.tracks(addrOf(200)));
  CHECK_FALSE(h.tracks(addrOf(1)));
  CHECK(h.trackedPeers().size() == MAX_TRACKED_PEERS);
}

}  // namespace
}  // namespace fips::router::stats
