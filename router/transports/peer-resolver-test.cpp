// SPDX-License-Identifier: MIT
// PeerResolver on virtual time: what it asks the worker and when, what it
// hands the link engine, fd00::/8 refusal, retry backoff, the refresh of a
// down peer's answer on the retry backoff (at most 60 s).
#include "router/transports/peer-resolver.h"

#include <array>
#include <variant>

#include <doctest/doctest.h>

namespace fips::router {
namespace {

struct Sent {
  uint32_t transport;
  uint32_t id;
  std::string host;
  uint16_t port;
};

crypto::PublicKey generatorKey() {
  // x of the secp256k1 generator: a valid x-only key.
  const std::array<uint8_t, 32> x = {0x79, 0xBE, 0x66, 0x7E, 0xF9, 0xDC, 0xBB, 0xAC,
                                     0x55, 0xA0, 0x62, 0x95, 0xCE, 0x87, 0x0B, 0x07,
                                     0x02, 0x9B, 0xFC, 0xDB, 0x2D, 0xCE, 0x28, 0xD9,
                                     0x59, 0xF2, 0x81, 0x5B, 0x16, 0xF8, 0x17, 0x98};
  auto key = crypto::PublicKey::fromXOnly(std::span<const uint8_t, 32>(x));
  REQUIRE(key);
  return *key;
}

link::TransportAddr v4(uint8_t last, uint16_t port = 2121) {
  const std::array<uint8_t, 4> ip = {10, 99, 0, last};
  return *link::TransportAddr::make(1, ip, port);
}

link::TransportAddr v6(uint8_t first, uint16_t port = 2121) {
  std::array<uint8_t, 16> ip{};
  ip[0] = first;
  ip[15] = 1;
  return *link::TransportAddr::make(1, ip, port);
}

struct Fixture {
  std::vector<Sent> sent;
  std::vector<std::vector<link::TransportAddr>> published;
  std::vector<bool> ephemeral;  // per published list
  bool accept = true;
  bool up = false;
  PeerResolver resolver{
      1000, 4000,
      [this](uint32_t t, uint32_t id, const std::string& host, uint16_t port) {
        if (!accept) return false;
        sent.push_back({t, id, host, port});
        return true;
      },
      [this](const crypto::PublicKey&, std::vector<link::TransportAddr> a, bool once) {
        published.push_back(std::move(a));
        ephemeral.push_back(once);
      }};
  std::function<bool(const identity::NodeAddr&)> isUp = [this](const identity::NodeAddr&) {
    return up;
  };
};

TEST_CASE("resolver: looks the name up, hands numeric then resolved addresses to the engine") {
  Fixture f;
  f.resolver.add(generatorKey(), "b", {v4(9)}, {{1, {"node-b", 2121}}});
  REQUIRE(f.published.size() == 1);  // the numeric address at once
  CHECK(f.published[0] == std::vector{v4(9)});
  f.resolver.tick(0, f.isUp);
  REQUIRE(f.sent.size() == 1);
  CHECK(f.sent[0].host == "node-b");
  CHECK(f.sent[0].port == 2121);
  f.resolver.tick(500, f.isUp);  // in flight: not sent twice
  CHECK(f.sent.size() == 1);
  f.resolver.onResolved(1, f.sent[0].id, {v4(2), v4(9), v4(3)}, "", 1000);
  REQUIRE(f.published.size() == 2);
  CHECK(f.published[1] == std::vector{v4(9), v4(2), v4(3)});
  CHECK(f.ephemeral == std::vector{false, false});
}

TEST_CASE("resolver: awaiting its first answer until one comes; removed, it asks no more") {
  Fixture f;
  const auto addr = identity::NodeAddr::fromPublicKey(generatorKey());
  CHECK_FALSE(f.resolver.awaitingFirstAnswer(addr));
  f.resolver.add(generatorKey(), "b", {}, {{1, {"node-b", 2121}}});
  CHECK(f.resolver.awaitingFirstAnswer(addr));
  f.resolver.tick(0, f.isUp);
  REQUIRE(f.sent.size() == 1);
  f.resolver.onResolved(1, f.sent[0].id, {v4(2)}, "", 10);
  CHECK_FALSE(f.resolver.awaitingFirstAnswer(addr));
  CHECK(f.resolver.remove(addr));
  CHECK_FALSE(f.resolver.remove(addr));
  f.resolver.tick(RESOLVE_TTL_MS + 10, f.isUp);
  CHECK(f.sent.size() == 1);
}

TEST_CASE("resolver: an answer in flight for a removed peer is ignored") {
  Fixture f;
  f.resolver.add(generatorKey(), "b", {}, {{1, {"node-b", 2121}}});
  f.resolver.tick(0, f.isUp);
  REQUIRE(f.sent.size() == 1);
  f.resolver.remove(identity::NodeAddr::fromPublicKey(generatorKey()));
  f.resolver.onResolved(1, f.sent[0].id, {v4(2)}, "", 10);
  CHECK(f.published.empty());
}

TEST_CASE("resolver: a connect-time name is looked up once, handed over once, then forgotten") {
  Fixture f;
  const auto addr = identity::NodeAddr::fromPublicKey(generatorKey());
  CHECK(f.resolver.addEphemeral(generatorKey(), "npub1x", {1, {"node-b", 2121}}));
  CHECK_FALSE(f.resolver.addEphemeral(generatorKey(), "npub1x", {1, {"node-b", 2121}}));
  CHECK(f.published.empty());  // nothing before the answer
  CHECK(f.resolver.awaitingFirstAnswer(addr));
  f.resolver.tick(0, f.isUp);
  REQUIRE(f.sent.size() == 1);
  f.resolver.onResolved(1, f.sent[0].id, {v6(0xFD), v4(2), v4(3)}, "", 10);
  REQUIRE(f.published.size() == 1);
  CHECK(f.published[0] == std::vector{v4(2), v4(3)});
  CHECK(f.ephemeral[0]);
  CHECK_FALSE(f.resolver.awaitingFirstAnswer(addr));
  CHECK_FALSE(f.resolver.remove(addr));  // forgotten
  f.resolver.tick(RESOLVE_TTL_MS + 10, f.isUp);
  CHECK(f.sent.size() == 1);
}

TEST_CASE("resolver: a connect-time name that fails is forgotten, not retried") {
  Fixture f;
  f.resolver.addEphemeral(generatorKey(), "npub1x", {1, {"nowhere", 2121}});
  f.resolver.tick(0, f.isUp);
  REQUIRE(f.sent.size() == 1);
  f.resolver.onResolved(1, f.sent[0].id, {}, "Name or service not known", 10);
  CHECK(f.published.empty());
  CHECK_FALSE(f.resolver.awaitingFirstAnswer(identity::NodeAddr::fromPublicKey(generatorKey())));
  f.resolver.tick(100'000, f.isUp);
  CHECK(f.sent.size() == 1);
}

TEST_CASE("resolver: an answer for another transport or id is not taken") {
  Fixture f;
  f.resolver.add(generatorKey(), "b", {}, {{1, {"node-b", 2121}}});
  f.resolver.tick(0, f.isUp);
  REQUIRE(f.sent.size() == 1);
  f.resolver.onResolved(2, f.sent[0].id, {v4(2)}, "", 10);
  f.resolver.onResolved(1, f.sent[0].id + 1, {v4(2)}, "", 10);
  CHECK(f.published.empty());
}

TEST_CASE("resolver: fd00::/8 answers are refused, the rest is used") {
  Fixture f;
  f.resolver.add(generatorKey(), "b", {}, {{1, {"node-b", 2121}}});
  f.resolver.tick(0, f.isUp);
  f.resolver.onResolved(1, f.sent[0].id, {v6(0xFD), v6(0x20)}, "", 10);
  REQUIRE(f.published.size() == 1);
  CHECK(f.published[0] == std::vector{v6(0x20)});
}

TEST_CASE("resolver: only fd00::/8 is a failure, retried with backoff") {
  Fixture f;
  f.resolver.add(generatorKey(), "b", {}, {{1, {"node-b", 2121}}});
  f.resolver.tick(0, f.isUp);
  f.resolver.onResolved(1, f.sent.back().id, {v6(0xFD)}, "", 0);
  CHECK(f.published.empty());
  f.resolver.tick(999, f.isUp);
  CHECK(f.sent.size() == 1);
  f.resolver.tick(1000, f.isUp);  // base 1 s
  REQUIRE(f.sent.size() == 2);
}

TEST_CASE("resolver: failures back off base × 2^n up to the cap, then success resets") {
  Fixture f;
  f.resolver.add(generatorKey(), "b", {}, {{1, {"nowhere", 2121}}});
  uint64_t now = 0;
  f.resolver.tick(now, f.isUp);
  for (uint64_t wait : {1000, 2000, 4000, 4000}) {
    f.resolver.onResolved(1, f.sent.back().id, {}, "Name or service not known", now);
    const size_t before = f.sent.size();
    f.resolver.tick(now + wait - 1, f.isUp);
    CHECK(f.sent.size() == before);
    now += wait;
    f.resolver.tick(now, f.isUp);
    CHECK(f.sent.size() == before + 1);
  }
  CHECK(f.published.empty());
  f.resolver.onResolved(1, f.sent.back().id, {v4(2)}, "", now);
  CHECK(f.published.size() == 1);
}

TEST_CASE("resolver: while down, refreshed on the retry backoff (at most 60 s); not while up") {
  Fixture f;  // retry base 1 s, cap 4 s
  f.resolver.add(generatorKey(), "b", {}, {{1, {"node-b", 2121}}});
  f.resolver.tick(0, f.isUp);
  f.resolver.onResolved(1, f.sent.back().id, {v4(2)}, "", 0);
  CHECK(f.published.size() == 1);
  // The first dial goes to 10.99.0.2 and fails: the next one asks again.
  f.resolver.tick(999, f.isUp);
  CHECK(f.sent.size() == 1);
  f.resolver.tick(1000, f.isUp);
  REQUIRE(f.sent.size() == 2);
  f.resolver.onResolved(1, f.sent.back().id, {v4(2)}, "", 1000);
  CHECK(f.published.size() == 1);  // the same answer: not republished
  f.resolver.tick(2999, f.isUp);   // then 2 s after that answer
  CHECK(f.sent.size() == 2);
  f.resolver.tick(3000, f.isUp);
  REQUIRE(f.sent.size() == 3);
  // The name moved (the peer changed its IP): the new address is handed over.
  f.resolver.onResolved(1, f.sent.back().id, {v4(7)}, "", 3000);
  REQUIRE(f.published.size() == 2);
  CHECK(f.published[1] == std::vector{v4(7)});
  f.resolver.tick(6999, f.isUp);  // 4 s (the cap) after it
  CHECK(f.sent.size() == 3);
  f.resolver.tick(7000, f.isUp);
  REQUIRE(f.sent.size() == 4);
  f.resolver.onResolved(1, f.sent.back().id, {v4(7)}, "", 7000);

  f.up = true;  // up: never looked up, however old the answer
  f.resolver.tick(7000 + 10 * RESOLVE_TTL_MS, f.isUp);
  CHECK(f.sent.size() == 4);
  f.up = false;  // down again: at once (the answer is old), then the backoff starts over
  f.resolver.tick(7001 + 10 * RESOLVE_TTL_MS, f.isUp);
  REQUIRE(f.sent.size() == 5);
  f.resolver.onResolved(1, f.sent.back().id, {v4(7)}, "", 8000 + 10 * RESOLVE_TTL_MS);
  f.resolver.tick(9999 + 10 * RESOLVE_TTL_MS, f.isUp);  // base × 2 after the answer
  CHECK(f.sent.size() == 5);
  f.resolver.tick(10000 + 10 * RESOLVE_TTL_MS, f.isUp);
  CHECK(f.sent.size() == 6);
}

TEST_CASE("resolver: with a long retry cap the refresh of a down peer waits at most 60 s") {
  std::vector<uint32_t> ids;
  PeerResolver resolver(
      1000, 3'600'000,
      [&](uint32_t, uint32_t id, const std::string&, uint16_t) {
        ids.push_back(id);
        return true;
      },
      [](const crypto::PublicKey&, std::vector<link::TransportAddr>, bool) {});
  auto down = [](const identity::NodeAddr&) { return false; };
  resolver.add(generatorKey(), "b", {}, {{1, {"node-b", 2121}}});
  uint64_t now = 0;
  resolver.tick(now, down);
  uint64_t gap = 0;
  for (int i = 0; i < 12; ++i) {
    REQUIRE(ids.size() == static_cast<size_t>(i + 1));
    resolver.onResolved(1, ids.back(), {v4(2)}, "", now);
    uint64_t t = now;
    while (ids.size() == static_cast<size_t>(i + 1) && t < now + RESOLVE_TTL_MS) {
      t += 500;
      resolver.tick(t, down);
    }
    gap = t - now;
    now = t;
  }
  CHECK(ids.size() == 13);
  CHECK(gap == RESOLVE_TTL_MS);  // 2^11 s of backoff, capped at 60 s
}

TEST_CASE("resolver: a request the worker cannot take now is sent on a later tick") {
  Fixture f;
  f.resolver.add(generatorKey(), "b", {}, {{1, {"node-b", 2121}}});
  f.accept = false;
  f.resolver.tick(0, f.isUp);
  f.accept = true;
  f.resolver.tick(1, f.isUp);
  CHECK(f.sent.size() == 1);
}

}  // namespace
}  // namespace fips::router
