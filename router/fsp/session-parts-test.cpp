// SPDX-License-Identifier: MIT
// Unit tests of the small parts of the FSP session layer: path MTU tracking
// (spec 04 §5), the pending packet queue (§2.4) and setup admission. Test
// code only.
#include "router/fsp/fsp-test-util.h"
// fsp-test-util.h must come first (it sets up doctest).
#include "router/fsp/path-mtu-state.h"
#include "router/fsp/pending-queue.h"
#include "router/fsp/setup-rate-limiter.h"

namespace fips::router::fsp {
namespace {

using namespace test;

TEST_CASE("path MTU: seeding only lowers; decreases apply at once; < 256 ignored") {
  PathMtuState s;
  CHECK(s.currentMtu() == PathMtuState::UNKNOWN);
  s.seedSourceMtu(1400);
  s.seedSourceMtu(1500);
  CHECK(s.currentMtu() == 1400);
  CHECK_FALSE(s.applyNotification(255, 0));
  CHECK(s.applyNotification(1300, 0));
  CHECK(s.currentMtu() == 1300);
}

TEST_CASE("path MTU: an increase needs 3 equal reports spanning 2 intervals") {
  PathMtuState s;
  s.seedSourceMtu(1280);
  CHECK_FALSE(s.applyNotification(1400, 0));
  CHECK_FALSE(s.applyNotification(1400, 10'000));
  CHECK_FALSE(s.applyNotification(1400, 19'999));  // third report, but < 20 s since the first
  CHECK(s.currentMtu() == 1280);
  CHECK(s.applyNotification(1400, 20'000));
  CHECK(s.currentMtu() == 1400);
  // A different value restarts the count.
  CHECK_FALSE(s.applyNotification(1500, 30'000));
  CHECK_FALSE(s.applyNotification(1450, 40'000));
  CHECK_FALSE(s.applyNotification(1450, 50'000));
  CHECK_FALSE(s.applyNotification(1450, 59'999));
  CHECK(s.applyNotification(1450, 60'000));
}

TEST_CASE("path MTU: destination notifications: first, decrease at once, else per interval") {
  PathMtuState s;
  CHECK_FALSE(s.takeNotification(0));
  s.observeIncoming(1400);
  CHECK(s.takeNotification(0) == 1400);
  CHECK_FALSE(s.takeNotification(9'999));
  s.observeIncoming(1300);
  CHECK(s.takeNotification(5'000) == 1300);
  CHECK(s.takeNotification(15'000) == 1300);
  s.setSrtt(3'000);
  CHECK(s.notificationIntervalMs() == 15'000);
  s.setSrtt(100);
  CHECK(s.notificationIntervalMs() == 10'000);
}

TEST_CASE("pending queue: 16 per destination, oldest dropped; destination cap") {
  PendingQueue q(16, 2);
  for (uint16_t i = 0; i < 20; ++i)
    CHECK(q.push(filledAddr(1), {.srcPort = i, .dstPort = 0, .payload = {}}));
  CHECK(q.queued(filledAddr(1)) == 16);
  CHECK(q.droppedOldest() == 4);
  CHECK(q.push(filledAddr(2), {}));
  CHECK_FALSE(q.push(filledAddr(3), {}));
  CHECK(q.refused() == 1);
  const auto got = q.take(filledAddr(1));
  REQUIRE(got.size() == 16);
  CHECK(got.front().srcPort == 4);
  CHECK(got.back().srcPort == 19);
  CHECK(q.destinations() == 1);
  CHECK(q.push(filledAddr(3), {}));
}

TEST_CASE("setup admission: separate stranger and established buckets, refill, idle expiry") {
  SetupRateLimiter lim(
      {.strangerBurst = 1, .strangerRate = 1.0, .establishedBurst = 1, .establishedRate = 1.0});
  CHECK(lim.admit(filledAddr(1), false, 0));
  CHECK_FALSE(lim.admit(filledAddr(1), false, 0));
  CHECK(lim.admit(filledAddr(1), true, 0));
  CHECK(lim.admit(filledAddr(1), false, 1000));
  CHECK(lim.admit(filledAddr(2), false, 1000));
  CHECK(lim.size() == 2);
  CHECK(lim.admit(filledAddr(3), false, 1000 + SetupRateLimiter::IDLE_MS));
  CHECK(lim.size() == 1);
}

}  // namespace
}  // namespace fips::router::fsp
