// SPDX-License-Identifier: MIT
#include "router/lookup/recent-requests.h"

#include "router/routing/routing-test-util.h"

namespace fips::router::lookup {
namespace {

using routing::test::addr;
using Record = RecentRequests::Record;

TEST_CASE("recent requests: dedup, reverse path taken once") {
  RecentRequests recent(10000, 4096);
  CHECK(recent.record(7, addr(1), 0) == Record::RECORDED);
  CHECK(recent.record(7, addr(2), 5) == Record::DUPLICATE);
  CHECK(recent.isKnown(7));
  CHECK(recent.takeReversePath(7) == addr(1));
  CHECK_FALSE(recent.takeReversePath(7).has_value());
  CHECK(recent.isKnown(7));
  CHECK_FALSE(recent.takeReversePath(8).has_value());
  CHECK_FALSE(recent.isKnown(8));
}

TEST_CASE("recent requests: entries expire after recent_expiry, purged on record") {
  RecentRequests recent(10000, 4096);
  CHECK(recent.record(1, addr(1), 0) == Record::RECORDED);
  CHECK(recent.record(2, addr(1), 5000) == Record::RECORDED);
  CHECK(recent.record(1, addr(1), 10000) == Record::DUPLICATE);  // 10 s old: not yet expired
  CHECK(recent.record(3, addr(1), 10001) == Record::RECORDED);   // purges id 1
  CHECK(recent.size() == 2);
  CHECK(recent.record(1, addr(2), 10001) == Record::RECORDED);
  CHECK(recent.takeReversePath(1) == addr(2));
}

TEST_CASE("recent requests: a full table drops new ids") {
  RecentRequests recent(10000, 2);
  CHECK(recent.record(1, addr(1), 0) == Record::RECORDED);
  CHECK(recent.record(2, addr(1), 0) == Record::RECORDED);
  CHECK(recent.record(3, addr(1), 0) == Record::FULL);
  CHECK(recent.record(1, addr(1), 0) == Record::DUPLICATE);
  CHECK(recent.record(3, addr(1), 10001) == Record::RECORDED);  // after expiry there is room
}

}  // namespace
}  // namespace fips::router::lookup
