// SPDX-License-Identifier: MIT
#include "router/lookup/forward-limiter.h"

#include <doctest/doctest.h>

namespace fips::router::lookup {
namespace {

NodeAddr addr(uint8_t b) {
  std::array<uint8_t, NodeAddr::SIZE> bytes{};
  bytes.fill(b);
  return NodeAddr(bytes);
}

TEST_CASE("forward limiter: one forward per target per interval, the last origin may retry") {
  ForwardLimiter l(2000, 500, 60000);
  const NodeAddr t = addr(1), o = addr(2), other = addr(3);
  CHECK(l.allow(t, o, 10000));
  CHECK_FALSE(l.allow(t, other, 10001));  // another origin: the 2 s limit
  CHECK_FALSE(l.allow(t, o, 10499));      // the same origin: not before 500 ms
  CHECK(l.allow(t, o, 11000));            // its retry one ladder step later
  CHECK_FALSE(l.allow(t, other, 12999));  // 2 s counted from the retry
  CHECK(l.allow(t, other, 13000));
  CHECK_FALSE(l.allow(t, o, 13600));  // the last origin is now `other`
  CHECK(l.allow(addr(9), o, 13600));  // targets are independent
  CHECK(l.size() == 2);
}

TEST_CASE("forward limiter: idle entries are purged") {
  ForwardLimiter l(2000, 500, 60000);
  for (uint8_t i = 0; i < 64; ++i) CHECK(l.allow(addr(i), addr(200), 0));
  CHECK(l.size() == 64);
  // 64 more a minute later: at 128 entries the 64 idle ones go.
  for (uint8_t i = 100; i < 164; ++i) CHECK(l.allow(addr(i), addr(200), 70000));
  CHECK(l.size() == 64);
}

}  // namespace
}  // namespace fips::router::lookup
