// SPDX-License-Identifier: MIT
// The transit LookupRequest forward limit: one request per (origin, target)
// per 2 s, entries idle 60 s forgotten (docs/STATUS.md, a departure).
#include "router/routing/routing-test-util.h"
//
#include "router/routing/per-addr-rate-limiter.h"

namespace fips::router::lookup {
namespace {

using identity::NodeAddr;
using routing::test::addr;
using Limiter = routing::PerAddrPairRateLimiter;

constexpr uint64_t INTERVAL_MS = 2000;
constexpr uint64_t MAX_AGE_MS = 60000;

Limiter makeLimiter() {
  return Limiter(INTERVAL_MS, MAX_AGE_MS);
}

// A distinct NodeAddr for each i (two low bytes).
NodeAddr numbered(uint32_t i) {
  std::array<uint8_t, NodeAddr::SIZE> bytes{};
  bytes[0] = static_cast<uint8_t>(i);
  bytes[1] = static_cast<uint8_t>(i >> 8);
  bytes[2] = static_cast<uint8_t>(i >> 16);
  return NodeAddr(bytes);
}

TEST_CASE("forward limiter: the same origin and target within 2 s is refused") {
  Limiter limiter = makeLimiter();
  CHECK(limiter.allow({addr(1), addr(9)}, 10000));
  CHECK_FALSE(limiter.allow({addr(1), addr(9)}, 10000));
  CHECK_FALSE(limiter.allow({addr(1), addr(9)}, 11999));
  // A refused request does not restart the interval.
  CHECK(limiter.allow({addr(1), addr(9)}, 12000));
  CHECK_FALSE(limiter.allow({addr(1), addr(9)}, 13999));
  CHECK(limiter.allow({addr(1), addr(9)}, 14000));
}

TEST_CASE("forward limiter: another origin or another target is allowed") {
  Limiter limiter = makeLimiter();
  CHECK(limiter.allow({addr(1), addr(9)}, 5000));
  CHECK(limiter.allow({addr(2), addr(9)}, 5001));  // other origin, same target
  CHECK(limiter.allow({addr(1), addr(8)}, 5002));  // same origin, other target
  CHECK(limiter.allow({addr(9), addr(1)}, 5003));  // the pair reversed
  CHECK_FALSE(limiter.allow({addr(2), addr(9)}, 5004));
  CHECK_FALSE(limiter.allow({addr(1), addr(8)}, 5005));
  CHECK(limiter.size() == 4);
}

TEST_CASE("forward limiter: a clock that goes back counts as no time passed") {
  Limiter limiter = makeLimiter();
  CHECK(limiter.allow({addr(1), addr(9)}, 10000));
  CHECK_FALSE(limiter.allow({addr(1), addr(9)}, 5000));
  CHECK(limiter.allow({addr(1), addr(9)}, 12000));
}

TEST_CASE("forward limiter: entries idle for the maximum age are forgotten") {
  Limiter limiter = makeLimiter();
  CHECK(limiter.allow({addr(1), addr(9)}, 0));
  CHECK(limiter.allow({addr(2), addr(9)}, 30000));
  limiter.purge(MAX_AGE_MS - 1);
  CHECK(limiter.size() == 2);
  limiter.purge(MAX_AGE_MS);
  CHECK(limiter.size() == 1);
  // Forgotten or not, a pair idle past the interval is allowed again.
  CHECK(limiter.allow({addr(1), addr(9)}, MAX_AGE_MS));
  CHECK_FALSE(limiter.allow({addr(2), addr(9)}, 31999));
  limiter.purge(30000 + MAX_AGE_MS);
  CHECK(limiter.size() == 1);
}

TEST_CASE("forward limiter: a full table forgets no live entry and reclaims aged ones") {
  Limiter limiter = makeLimiter();
  constexpr uint32_t LIVE = 5000;
  // Many pairs inside one interval: the table grows, none is forgotten.
  for (uint32_t i = 0; i < LIVE; ++i) CHECK(limiter.allow({numbered(i), addr(9)}, 1000));
  CHECK(limiter.size() == LIVE);
  bool anyAllowed = false;
  for (uint32_t i = 0; i < LIVE; ++i) anyAllowed |= limiter.allow({numbered(i), addr(9)}, 2999);
  CHECK_FALSE(anyAllowed);
  // Once they are past the maximum age, new pairs reuse their room: the
  // table holds the new pairs only.
  for (uint32_t i = 0; i < 4 * LIVE; ++i) {
    CHECK(limiter.allow({numbered(i), addr(7)}, 1000 + MAX_AGE_MS));
  }
  CHECK(limiter.size() < 5 * LIVE);
  limiter.purge(1000 + MAX_AGE_MS);
  CHECK(limiter.size() == 4 * LIVE);
  bool anyNewAllowed = false;
  for (uint32_t i = 0; i < 4 * LIVE; ++i) {
    anyNewAllowed |= limiter.allow({numbered(i), addr(7)}, 2999 + MAX_AGE_MS);
  }
  CHECK_FALSE(anyNewAllowed);
}

}  // namespace
}  // namespace fips::router::lookup
