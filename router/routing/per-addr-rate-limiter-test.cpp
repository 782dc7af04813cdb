// SPDX-License-Identifier: MIT
#include "router/routing/per-addr-rate-limiter.h"

#include "router/routing/routing-test-util.h"

namespace fips::router::routing {
namespace {

using test::addr;

TEST_CASE("per-address rate limiter: one event per interval per address") {
  PerAddrRateLimiter limiter(100, 10000);
  CHECK(limiter.allow(addr(1), 1000));
  CHECK_FALSE(limiter.allow(addr(1), 1099));
  CHECK(limiter.allow(addr(2), 1099));
  CHECK(limiter.allow(addr(1), 1100));
  CHECK_FALSE(limiter.allow(addr(1), 1150));
}

TEST_CASE("per-address rate limiter: old entries are purged") {
  PerAddrRateLimiter limiter(100, 1000);
  for (uint8_t i = 0; i < 10; ++i) CHECK(limiter.allow(addr(i), 0));
  CHECK(limiter.size() == 10);
  limiter.purge(999);
  CHECK(limiter.size() == 10);
  limiter.purge(1000);
  CHECK(limiter.size() == 0);
  // Growth past the purge threshold drops aged entries on its own.
  for (int i = 0; i < 200; ++i) {
    std::array<uint8_t, 16> bytes{};
    bytes[0] = static_cast<uint8_t>(i);
    bytes[1] = static_cast<uint8_t>(i >> 8);
    CHECK(limiter.allow(NodeAddr(bytes), static_cast<uint64_t>(i) * 100));
  }
  CHECK(limiter.size() < 200);
}

}  // namespace
}  // namespace fips::router::routing
