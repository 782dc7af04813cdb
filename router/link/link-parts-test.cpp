// SPDX-License-Identifier: MIT
// Unit tests for the link engine's small parts: token bucket, reconnect
// backoff, index table, resend schedule, transport addresses. Test code only.
#include <array>

#include <doctest/doctest.h>

#include "router/link/handshake-driver.h"
#include "router/link/index-table.h"
#include "router/link/link-test-net.h"
#include "router/link/retry-schedule.h"
#include "router/link/token-bucket.h"
#include "router/link/transport-addr.h"

namespace fips::router::link::test {
namespace {

TEST_CASE("token bucket: burst, then the refill rate") {
  TokenBucket bucket(100, 10.0, 0);
  int granted = 0;
  for (int i = 0; i < 150; ++i) granted += bucket.tryAcquire(0) ? 1 : 0;
  CHECK(granted == 100);
  CHECK_FALSE(bucket.tryAcquire(50));
  CHECK(bucket.tryAcquire(100));  // 0.1 s at 10/s = one token
  CHECK_FALSE(bucket.tryAcquire(100));
}

TEST_CASE("token bucket: the established bucket as the reference derives it") {
  // 128 peers, rekey every 120 s, 5 resends: rate 6.4/s, burst 128.
  TokenBucket bucket = establishedBucket(128, 120, 5, 100, 10.0, 0);
  int granted = 0;
  for (int i = 0; i < 200; ++i) granted += bucket.tryAcquire(0) ? 1 : 0;
  CHECK(granted == 128);
}

TEST_CASE("retry: base × 2^n capped; timeouts and losses escalate, success clears") {
  CHECK(retryBackoffMs(0, 5000, 300'000) == 5000);
  CHECK(retryBackoffMs(3, 5000, 300'000) == 40'000);
  CHECK(retryBackoffMs(6, 5000, 300'000) == 300'000);
  CHECK(retryBackoffMs(200, 5000, 300'000) == 300'000);
  RetrySchedule retry(5000, 300'000);
  retry.onLinkLost(1000);
  CHECK(retry.dueMs() == 6000);
  retry.onHandshakeTimeout(10'000);
  CHECK(retry.dueMs() == 20'000);
  retry.clear();
  retry.onHandshakeTimeout(0);
  CHECK(retry.dueMs() == 10'000);
}

TEST_CASE("index table: allocation avoids indices in use; dispatch by transport") {
  IndexTable table;
  SeededRng rng(1);
  const auto a = table.allocate(rng);
  REQUIRE(a.has_value());
  table.bind(1, *a, IndexEntry{identity::NodeAddr{}, IndexRole::SESSION});
  CHECK(table.find(1, *a) != nullptr);
  CHECK(table.find(2, *a) == nullptr);
  table.release(1, *a);
  CHECK(table.find(1, *a) == nullptr);
  CHECK(table.inUse() == 0);
}

TEST_CASE("resend schedule: ≈1, 3, 7, 15 s after the first send") {
  uint64_t at = 1000;  // first resend due at interval
  std::array<uint64_t, 4> sends{};
  for (uint32_t count = 0; count < 4; ++count) {
    sends[count] = at;
    at = nextResendAtMs(at, 1000, 2.0, count);
  }
  CHECK(sends == std::array<uint64_t, 4>{1000, 3000, 7000, 15000});
}

TEST_CASE("transport addr: value semantics and the fd00::/8 check") {
  const std::array<uint8_t, 4> v4{192, 0, 2, 1};
  std::array<uint8_t, 16> v6{};
  v6[0] = 0xFD;
  const auto a = TransportAddr::make(1, v4, 2121);
  REQUIRE(a.has_value());
  CHECK(*a == *TransportAddr::make(1, v4, 2121));
  CHECK_FALSE(*a == *TransportAddr::make(2, v4, 2121));
  CHECK(TransportAddrHash{}(*a) == TransportAddrHash{}(*TransportAddr::make(1, v4, 2121)));
  CHECK_FALSE(a->isFipsMeshAddress());
  CHECK(TransportAddr::make(1, v6, 1)->isFipsMeshAddress());
  CHECK_FALSE(TransportAddr::make(1, std::span<const uint8_t>(v4).first(3), 1).has_value());
}

}  // namespace
}  // namespace fips::router::link::test
