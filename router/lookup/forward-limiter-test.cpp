// SPDX-License-Identifier: MIT
// The transit LookupRequest forward limit: one request per (origin, target)
// per 2 s, entries idle 60 s forgotten (docs/STATUS.md, a departure).
#include "router/routing/routing-test-util.h"
//
#include "router/lookup/forward-limiter.h"

namespace fips::router::lookup {
namespace {

using identity::NodeAddr;
using routing::test::addr;

constexpr uint64_t INTERVAL_MS = 2000;
constexpr uint64_t MAX_AGE_MS = 60000;

// Any hash key is correct; these tests use a fixed one.
constexpr ForwardLimiter::HashKey HASH_KEY{
    0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9, 0x94d049bb133111eb,
    0x2545f4914f6cdd1d, 0x632be59bd9b4e019, 0x85ebca6b0b0c1a2b,
    0xc2b2ae3d27d4eb4f, 0x165667b19e3779f9, 0x27d4eb2f165667c5};

ForwardLimiter makeLimiter() {
  return ForwardLimiter(INTERVAL_MS, MAX_AGE_MS, HASH_KEY);
}

// A distinct NodeAddr for each i < 2^24 (its three low bytes).
NodeAddr numbered(uint32_t i) {
  std::array<uint8_t, NodeAddr::SIZE> bytes{};
  bytes[0] = static_cast<uint8_t>(i);
  bytes[1] = static_cast<uint8_t>(i >> 8);
  bytes[2] = static_cast<uint8_t>(i >> 16);
  return NodeAddr(bytes);
}

TEST_CASE("forward limiter: the same origin and target within 2 s is refused") {
  ForwardLimiter limiter = makeLimiter();
  CHECK(limiter.allow(addr(1), addr(9), 10000));
  CHECK_FALSE(limiter.allow(addr(1), addr(9), 10000));
  CHECK_FALSE(limiter.allow(addr(1), addr(9), 11999));
  // A refused request does not restart the interval.
  CHECK(limiter.allow(addr(1), addr(9), 12000));
  CHECK_FALSE(limiter.allow(addr(1), addr(9), 13999));
  CHECK(limiter.allow(addr(1), addr(9), 14000));
}

TEST_CASE("forward limiter: another origin or another target is allowed") {
  ForwardLimiter limiter = makeLimiter();
  CHECK(limiter.allow(addr(1), addr(9), 5000));
  CHECK(limiter.allow(addr(2), addr(9), 5001));  // other origin, same target
  CHECK(limiter.allow(addr(1), addr(8), 5002));  // same origin, other target
  CHECK(limiter.allow(addr(9), addr(1), 5003));  // the pair reversed
  CHECK_FALSE(limiter.allow(addr(2), addr(9), 5004));
  CHECK_FALSE(limiter.allow(addr(1), addr(8), 5005));
  CHECK(limiter.size() == 4);
}

TEST_CASE("forward limiter: a clock that goes back counts as no time passed") {
  ForwardLimiter limiter = makeLimiter();
  CHECK(limiter.allow(addr(1), addr(9), 10000));
  CHECK_FALSE(limiter.allow(addr(1), addr(9), 5000));
  CHECK(limiter.allow(addr(1), addr(9), 12000));
}

TEST_CASE("forward limiter: entries idle for the maximum age are forgotten") {
  ForwardLimiter limiter = makeLimiter();
  CHECK(limiter.allow(addr(1), addr(9), 0));
  CHECK(limiter.allow(addr(2), addr(9), 30000));
  limiter.purge(MAX_AGE_MS - 1);
  CHECK(limiter.size() == 2);
  limiter.purge(MAX_AGE_MS);
  CHECK(limiter.size() == 1);
  // Forgotten or not, a pair idle past the interval is allowed again.
  CHECK(limiter.allow(addr(1), addr(9), MAX_AGE_MS));
  CHECK_FALSE(limiter.allow(addr(2), addr(9), 31999));
  limiter.purge(30000 + MAX_AGE_MS);
  CHECK(limiter.size() == 1);
}

TEST_CASE("forward limiter: a full table forgets no live entry and reclaims aged ones") {
  ForwardLimiter limiter = makeLimiter();
  constexpr uint32_t LIVE = 5000;
  // Many pairs inside one interval: the table grows, none is forgotten.
  for (uint32_t i = 0; i < LIVE; ++i) CHECK(limiter.allow(numbered(i), addr(9), 1000));
  CHECK(limiter.size() == LIVE);
  CHECK(4 * limiter.size() <= 3 * limiter.capacity());  // at most three quarters full
  bool anyAllowed = false;
  for (uint32_t i = 0; i < LIVE; ++i) anyAllowed |= limiter.allow(numbered(i), addr(9), 2999);
  CHECK_FALSE(anyAllowed);
  // Once they are past the maximum age, new pairs reuse their room: the
  // table holds the new pairs only.
  for (uint32_t i = 0; i < 4 * LIVE; ++i) {
    CHECK(limiter.allow(numbered(i), addr(7), 1000 + MAX_AGE_MS));
  }
  CHECK(limiter.size() < 5 * LIVE);
  limiter.purge(1000 + MAX_AGE_MS);
  CHECK(limiter.size() == 4 * LIVE);
  CHECK(4 * limiter.size() <= 3 * limiter.capacity());
  CHECK(limiter.capacity() <= 4 * 4 * LIVE);  // sized for what lives, not all ever seen
  bool anyNewAllowed = false;
  for (uint32_t i = 0; i < 4 * LIVE; ++i) {
    anyNewAllowed |= limiter.allow(numbered(i), addr(7), 2999 + MAX_AGE_MS);
  }
  CHECK_FALSE(anyNewAllowed);
}

TEST_CASE("forward limiter: steady churn keeps the table the same size") {
  ForwardLimiter limiter = makeLimiter();
  CHECK(limiter.capacity() == 0);  // nothing allocated before the first request
  // 100 new pairs every second for 10 minutes: about 6,000 live at a time.
  size_t capacityAt5Min = 0;
  for (uint32_t s = 0; s < 600; ++s) {
    for (uint32_t i = 0; i < 100; ++i) {
      CHECK(limiter.allow(numbered(s * 100 + i), addr(9), uint64_t{s} * 1000));
    }
    if (s == 300) capacityAt5Min = limiter.capacity();
  }
  // Aged entries stay until the next rebuild: up to three quarters of the
  // table, which is sized 2-4x what lives.
  CHECK(4 * limiter.size() <= 3 * limiter.capacity());
  CHECK(limiter.capacity() <= 4 * 6100);
  CHECK(limiter.capacity() == capacityAt5Min);
}

}  // namespace
}  // namespace fips::router::lookup
