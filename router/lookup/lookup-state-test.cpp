// SPDX-License-Identifier: MIT
#include "router/lookup/lookup-state.h"

#include <algorithm>

#include "router/routing/fake-mesh-view.h"
#include "router/routing/routing-test-util.h"

namespace fips::router::lookup {
namespace {

using routing::test::addr;
using routing::test::coords;
using routing::test::FakeMeshView;

// Deterministic randomness: byte n of the stream is n (mod 256).
class CountingRng final : public crypto::Rng {
 public:
  [[nodiscard]] bool fill(std::span<uint8_t> out) override {
    for (uint8_t& b : out) b = next_++;
    return true;
  }

 private:
  uint8_t next_ = 1;
};

crypto::SecretKey keyPair(uint8_t seed) {
  static const crypto::Secp256k1Context ctx;
  crypto::ScriptedRng rng(std::vector<uint8_t>(32, seed));
  return *crypto::SecretKey::generate(ctx, rng);
}

crypto::PublicKey publicKey(const crypto::SecretKey& key) {
  return key.publicKey();
}

// One node: its key, view, caches and lookup state.
struct Node {
  explicit Node(uint8_t seed, const LookupConfig& cfg = {})
      : key(keyPair(seed)),
        addr(NodeAddr::fromPublicKey(publicKey(key))),
        view(addr, stp::Coordinates({addr})),
        config(cfg),
        state(config, ctx, key, rng) {}

  crypto::Secp256k1Context ctx;
  CountingRng rng;
  crypto::SecretKey key;
  NodeAddr addr;
  FakeMeshView view;
  routing::IdentityCache ids;
  routing::CoordCache coords;
  LookupConfig config;  // LookupState keeps a reference
  LookupState state;
  LookupActions out;
};

std::span<const uint8_t> body(const LookupSend& send) {
  return std::span(send.message).subspan(1);
}

LookupRequest requestIn(const LookupSend& send) {
  REQUIRE(send.message.at(0) == LOOKUP_REQUEST_TYPE);
  const auto decoded = decodeLookupRequest(body(send));
  REQUIRE(decoded.ok());
  return decoded.value();
}

const NodeAddr TARGET = addr(0x90);

TEST_CASE("lookup start: bloom miss, tree peers only, pending dedup, no own dedup entry") {
  Node me(1);
  me.view.setSelfCoords(stp::Coordinates({me.addr, addr(0x01)}));
  CHECK(me.state.start(me.view, TARGET, 0, me.out) == LookupStart::BLOOM_MISS);

  me.view.addPeer(addr(0x40), coords({0x40, 0x01}), {TARGET}, /*treePeer=*/false);
  CHECK(me.state.start(me.view, TARGET, 0, me.out) == LookupStart::NO_TREE_PEER);
  CHECK(me.out.sends.empty());
  CHECK_FALSE(me.state.isPending(TARGET));

  me.view.addPeer(addr(0x01), coords({0x01}), {TARGET}, true);
  me.view.addPeer(addr(0x60), coords({0x60, 0x01}), {}, true);
  CHECK(me.state.start(me.view, TARGET, 0, me.out) == LookupStart::STARTED);
  REQUIRE(me.out.sends.size() == 1);
  CHECK(me.out.sends[0].peers == std::vector<NodeAddr>{addr(0x01)});
  const LookupRequest request = requestIn(me.out.sends[0]);
  CHECK(request.target == TARGET);
  CHECK(request.origin == me.addr);
  CHECK(request.ttl == 64);
  CHECK(request.minMtu == 0);
  CHECK(request.originCoords == me.view.selfCoords());
  CHECK(me.state.recentCount() == 0);
  CHECK(me.state.start(me.view, TARGET, 10, me.out) == LookupStart::ALREADY_PENDING);
  CHECK(me.out.sends.size() == 1);
  CHECK(me.state.counters().reqBloomMiss == 1);
  CHECK(me.state.counters().reqDeduplicated == 1);
}

TEST_CASE("lookup ladder: [1, 2, 4, 8] s with a fresh request_id per attempt, then unreachable") {
  Node me(1);
  me.view.addPeer(addr(0x01), coords({0x01}), {TARGET}, true);
  REQUIRE(me.state.start(me.view, TARGET, 0, me.out) == LookupStart::STARTED);
  std::vector<uint64_t> ids{requestIn(me.out.sends.back()).requestId};
  // Attempt k is re-sent when its timeout has elapsed since the last send.
  const std::vector<std::pair<uint64_t, uint64_t>> steps{{999, 1000}, {2999, 3000}, {6999, 7000}};
  for (const auto& [before, at] : steps) {
    me.state.tick(me.view, before, me.out);
    CHECK(me.out.sends.size() == ids.size());
    me.state.tick(me.view, at, me.out);
    REQUIRE(me.out.sends.size() == ids.size() + 1);
    ids.push_back(requestIn(me.out.sends.back()).requestId);
  }
  std::sort(ids.begin(), ids.end());
  CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
  me.state.tick(me.view, 14999, me.out);
  CHECK(me.out.unreachable.empty());
  me.state.tick(me.view, 15000, me.out);
  CHECK(me.out.unreachable == std::vector<NodeAddr>{TARGET});
  CHECK(me.out.sends.size() == 4);
  CHECK_FALSE(me.state.isPending(TARGET));
  CHECK(me.state.counters().reqInitiated == 4);
  CHECK(me.state.counters().respTimedOut == 1);
}

TEST_CASE("lookup backoff (when configured) suppresses restarts until reset") {
  Node me(1, LookupConfig{.attemptTimeoutsSecs = {1}, .backoffBaseSecs = 5, .backoffMaxSecs = 60});
  CHECK(me.state.start(me.view, TARGET, 0, me.out) == LookupStart::BLOOM_MISS);
  me.view.addPeer(addr(0x01), coords({0x01}), {TARGET}, true);
  CHECK(me.state.start(me.view, TARGET, 4999, me.out) == LookupStart::BACKOFF);
  CHECK(me.state.start(me.view, TARGET, 5000, me.out) == LookupStart::STARTED);
  me.state.tick(me.view, 6000, me.out);
  REQUIRE(me.out.unreachable.size() == 1);
  // Second failure: 10 s.
  CHECK(me.state.start(me.view, TARGET, 15999, me.out) == LookupStart::BACKOFF);
  me.state.resetBackoff();
  CHECK(me.state.start(me.view, TARGET, 6000, me.out) == LookupStart::STARTED);
}

// A transit node T with peers F (sender), a tree peer P and a non-tree peer N.
struct Transit {
  Node t{2};
  NodeAddr from = addr(0x10);
  Transit() {
    t.view.addPeer(from, coords({0x10, 0x01}), {}, true);
    t.view.addPeer(addr(0x20), coords({0x20, 0x01}), {TARGET}, true);
    t.view.addPeer(addr(0x30), coords({0x30, 0x01}), {TARGET}, false);
  }
  std::vector<uint8_t> request(uint64_t id, uint8_t ttl, const NodeAddr& target = TARGET,
                               const NodeAddr& origin = addr(0x11)) {
    auto m = encodeLookupRequest(LookupRequest{.requestId = id,
                                               .target = target,
                                               .origin = origin,
                                               .ttl = ttl,
                                               .minMtu = 0,
                                               .originCoords = coords({0x11, 0x10, 0x01})});
    return {m.begin() + 1, m.end()};
  }
};

TEST_CASE("lookup transit: tree peers first, ttl decremented, duplicates dropped") {
  Transit x;
  x.t.state.onRequest(x.t.view, x.from, x.request(7, 5), 0, x.t.out);
  REQUIRE(x.t.out.sends.size() == 1);
  CHECK(x.t.out.sends[0].peers == std::vector<NodeAddr>{addr(0x20)});
  CHECK(requestIn(x.t.out.sends[0]).ttl == 4);
  CHECK(requestIn(x.t.out.sends[0]).requestId == 7);
  x.t.state.onRequest(x.t.view, addr(0x20), x.request(7, 5), 100, x.t.out);
  CHECK(x.t.out.sends.size() == 1);
  CHECK(x.t.state.counters().reqDuplicate == 1);
  CHECK(x.t.state.recentCount() == 1);
}

TEST_CASE("lookup transit: non-tree fallback when no tree peer matches") {
  Transit x;
  x.t.view.peer(addr(0x20)).treePeer = false;
  x.t.view.peer(addr(0x30)).treePeer = false;
  x.t.state.onRequest(x.t.view, x.from, x.request(7, 5), 0, x.t.out);
  REQUIRE(x.t.out.sends.size() == 1);
  CHECK(x.t.out.sends[0].peers == std::vector<NodeAddr>{addr(0x20), addr(0x30)});
  CHECK(x.t.state.counters().reqFallbackForwarded == 1);
}

TEST_CASE("lookup transit: ttl 0 is not forwarded, ttl 1 leaves with 0") {
  Transit x;
  x.t.state.onRequest(x.t.view, x.from, x.request(1, 0), 0, x.t.out);
  CHECK(x.t.out.sends.empty());
  CHECK(x.t.state.counters().reqTtlExhausted == 1);
  x.t.state.onRequest(x.t.view, x.from, x.request(2, 1), 0, x.t.out);
  REQUIRE(x.t.out.sends.size() == 1);
  CHECK(requestIn(x.t.out.sends[0]).ttl == 0);
}

TEST_CASE("lookup transit: one forward per origin and target per 2 s; dedup cap") {
  Transit x;
  const NodeAddr other = addr(0x12);
  x.t.state.onRequest(x.t.view, x.from, x.request(1, 5), 0, x.t.out);
  // Another origin's lookup for the same target is forwarded (the reference
  // limits by target alone and would drop it; see docs/STATUS.md).
  x.t.state.onRequest(x.t.view, x.from, x.request(2, 5, TARGET, other), 10, x.t.out);
  CHECK(x.t.out.sends.size() == 2);
  CHECK(x.t.state.counters().reqForwardRateLimited == 0);
  // The same origin's fresh request_id within 2 s is limited.
  x.t.state.onRequest(x.t.view, x.from, x.request(3, 5, TARGET, other), 2009, x.t.out);
  CHECK(x.t.out.sends.size() == 2);
  CHECK(x.t.state.counters().reqForwardRateLimited == 1);
  x.t.state.onRequest(x.t.view, x.from, x.request(4, 5, TARGET, other), 2010, x.t.out);
  CHECK(x.t.out.sends.size() == 3);
  // Its retry one ladder step (1 s) later is limited too, as in the reference.
  x.t.state.onRequest(x.t.view, x.from, x.request(5, 5, TARGET, other), 3010, x.t.out);
  CHECK(x.t.out.sends.size() == 3);
  CHECK(x.t.state.counters().reqForwardRateLimited == 2);

  Node small(3, LookupConfig{.maxRecentRequests = 1});
  small.state.onRequest(small.view, x.from, x.request(1, 5, addr(0x91)), 0, small.out);
  small.state.onRequest(small.view, x.from, x.request(2, 5, addr(0x92)), 0, small.out);
  CHECK(small.state.counters().reqDedupCacheFull == 1);
  CHECK(small.state.recentCount() == 1);
}

TEST_CASE("lookup transit: our own request back from a peer is dropped, not recorded") {
  Transit x;
  x.t.state.onRequest(x.t.view, x.from, x.request(1, 5, TARGET, x.t.addr), 0, x.t.out);
  CHECK(x.t.out.sends.empty());
  CHECK(x.t.out.routedHere.empty());
  CHECK(x.t.state.counters().reqOwnReturned == 1);
  CHECK(x.t.state.recentCount() == 0);  // its answer will be taken as ours
  // Another origin's request: the sender routed the target to us.
  x.t.state.onRequest(x.t.view, x.from, x.request(2, 5), 0, x.t.out);
  REQUIRE(x.t.out.routedHere.size() == 1);
  CHECK(x.t.out.routedHere[0].from == x.from);
  CHECK(x.t.out.routedHere[0].target == TARGET);
}

// Origin O — transit T — target X, T the root, all tree peers of each other.
struct Chain {
  Node o{1}, t{2}, x{3};
  Chain() {
    t.view.setSelfCoords(stp::Coordinates({t.addr}));
    o.view.setSelfCoords(stp::Coordinates({o.addr, t.addr}));
    x.view.setSelfCoords(stp::Coordinates({x.addr, t.addr}));
    o.view.addPeer(t.addr, t.view.selfCoords(), {x.addr}, true);
    t.view.addPeer(o.addr, o.view.selfCoords(), {o.addr}, true);
    t.view.addPeer(x.addr, x.view.selfCoords(), {x.addr}, true);
    x.view.addPeer(t.addr, t.view.selfCoords(), {o.addr}, true);
    t.view.peer(o.addr).linkMtu = 1400;
    x.view.peer(t.addr).linkMtu = 1452;
    o.ids.insert(publicKey(x.key));
  }
  // Runs the request to X and the response back to T; returns what T sends to O.
  LookupSend run() {
    REQUIRE(o.state.start(o.view, x.addr, 0, o.out) == LookupStart::STARTED);
    t.state.onRequest(t.view, o.addr, body(o.out.sends.at(0)), 10, t.out);
    REQUIRE(t.out.sends.size() == 1);
    x.state.onRequest(x.view, t.addr, body(t.out.sends.at(0)), 20, x.out);
    REQUIRE(x.out.sends.size() == 1);
    CHECK(x.out.sends[0].peers == std::vector<NodeAddr>{t.addr});
    t.state.onResponse(t.view, t.ids, t.coords, body(x.out.sends[0]), 30, t.out);
    REQUIRE(t.out.sends.size() == 2);
    CHECK(t.out.sends[1].peers == std::vector<NodeAddr>{o.addr});
    return t.out.sends[1];
  }
};

TEST_CASE(
    "lookup end to end: target signs, transit min-folds path_mtu, origin verifies and caches") {
  Chain c;
  const LookupSend toOrigin = c.run();
  const auto response = decodeLookupResponse(body(toOrigin));
  REQUIRE(response.ok());
  CHECK(response->pathMtu == 1400);  // min(0xFFFF, 1452 at X, 1400 at T)
  CHECK(response->targetCoords == c.x.view.selfCoords());
  CHECK(c.x.state.counters().reqTargetIsUs == 1);
  CHECK(c.t.state.counters().respForwarded == 1);

  c.o.state.onResponse(c.o.view, c.o.ids, c.o.coords, body(toOrigin), 40, c.o.out);
  REQUIRE(c.o.out.resolved.size() == 1);
  CHECK(c.o.out.resolved[0].target == c.x.addr);
  CHECK_FALSE(c.o.state.isPending(c.x.addr));
  const routing::CoordCacheEntry* cached = c.o.coords.get(c.x.addr, 40);
  REQUIRE(cached != nullptr);
  CHECK(cached->coords == c.x.view.selfCoords());
  CHECK(cached->pathMtu == 1400);
  CHECK(c.o.state.counters().respAccepted == 1);

  // A second copy of the response at T is not forwarded again.
  c.t.state.onResponse(c.t.view, c.t.ids, c.t.coords, body(c.x.out.sends[0]), 50, c.t.out);
  CHECK(c.t.out.sends.size() == 2);
  CHECK(c.t.state.counters().respAlreadyForwarded == 1);
}

TEST_CASE("lookup origin: tampered proof, unknown identity, low path MTU") {
  Chain c;
  std::vector<uint8_t> message = c.run().message;

  SUBCASE("tampered proof is rejected and nothing is cached") {
    message.back() ^= 0x01;
    c.o.state.onResponse(c.o.view, c.o.ids, c.o.coords, std::span(message).subspan(1), 40, c.o.out);
    CHECK(c.o.state.counters().respProofFailed == 1);
    CHECK(c.o.out.resolved.empty());
    CHECK(c.o.coords.size() == 0);
    CHECK(c.o.state.isPending(c.x.addr));
  }
  SUBCASE("tampered coordinates are rejected") {
    message[1 + 26 + 2] ^= 0x01;  // first coordinate byte
    c.o.state.onResponse(c.o.view, c.o.ids, c.o.coords, std::span(message).subspan(1), 40, c.o.out);
    CHECK(c.o.state.counters().respProofFailed == 1);
    CHECK(c.o.coords.size() == 0);
  }
  SUBCASE("no key in the identity cache: discarded") {
    routing::IdentityCache empty;
    c.o.state.onResponse(c.o.view, empty, c.o.coords, std::span(message).subspan(1), 40, c.o.out);
    CHECK(c.o.state.counters().respIdentityMiss == 1);
    CHECK(c.o.coords.size() == 0);
  }
  SUBCASE("path_mtu below 256 (not signed): coordinates cached without it") {
    message[1 + 24] = 0xFF;  // path_mtu = 0x00FF
    message[1 + 25] = 0x00;
    c.o.state.onResponse(c.o.view, c.o.ids, c.o.coords, std::span(message).subspan(1), 40, c.o.out);
    REQUIRE(c.o.coords.get(c.x.addr, 40) != nullptr);
    CHECK_FALSE(c.o.coords.get(c.x.addr, 40)->pathMtu.has_value());
    CHECK(c.o.state.counters().respMtuBelowFloor == 1);
  }
}

TEST_CASE("lookup: malformed bodies are counted and dropped") {
  Node me(1);
  const std::vector<uint8_t> junk(10, 0);
  me.state.onRequest(me.view, addr(1), junk, 0, me.out);
  me.state.onResponse(me.view, me.ids, me.coords, junk, 0, me.out);
  CHECK(me.state.counters().reqDecodeError == 1);
  CHECK(me.state.counters().respDecodeError == 1);
  CHECK(me.out.sends.empty());
}

}  // namespace
}  // namespace fips::router::lookup
