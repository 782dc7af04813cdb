// SPDX-License-Identifier: MIT
#include "router/routing/coord-cache.h"

#include "router/routing/routing-test-util.h"

namespace fips::router::routing {
namespace {

using test::addr;
using test::coords;

TEST_CASE("coord cache: insert, get, TTL expiry at now > created + ttl") {
  CoordCache cache({.capacity = 10, .ttlMs = 1000});
  cache.insert(addr(1), coords({1, 9}), 0);
  REQUIRE(cache.get(addr(1), 1000) != nullptr);
  CHECK(cache.get(addr(1), 1000)->coords == coords({1, 9}));
  CHECK_FALSE(cache.get(addr(1), 1000)->pathMtu.has_value());
  CHECK(cache.get(addr(1), 1001) == nullptr);
  CHECK(cache.get(addr(2), 0) == nullptr);
  CHECK(cache.size() == 1);  // get() never removes
}

TEST_CASE("coord cache: getAndTouch refreshes the TTL; an expired entry is removed") {
  CoordCache cache({.capacity = 10, .ttlMs = 1000});
  cache.insert(addr(1), coords({1, 9}), 0);
  REQUIRE(cache.getAndTouch(addr(1), 900) != nullptr);
  CHECK(cache.get(addr(1), 1900) != nullptr);
  CHECK(cache.get(addr(1), 1901) == nullptr);
  CHECK(cache.getAndTouch(addr(1), 1901) == nullptr);
  CHECK(cache.size() == 0);
}

TEST_CASE("coord cache: rewrite keeps the path MTU unless given a new one") {
  CoordCache cache({.capacity = 10, .ttlMs = 1000});
  cache.insertWithPathMtu(addr(1), coords({1, 9}), 0, 1400);
  cache.insert(addr(1), coords({1, 2, 9}), 10);
  REQUIRE(cache.get(addr(1), 10) != nullptr);
  CHECK(cache.get(addr(1), 10)->coords == coords({1, 2, 9}));
  CHECK(cache.get(addr(1), 10)->pathMtu == 1400);
  CHECK(cache.get(addr(1), 10)->createdMs == 0);
  cache.insertWithPathMtu(addr(1), coords({1, 9}), 20, 1300);
  CHECK(cache.get(addr(1), 20)->pathMtu == 1300);
  CHECK(cache.size() == 1);
}

TEST_CASE("coord cache: LRU eviction honours touches") {
  CoordCache cache({.capacity = 2, .ttlMs = 10000});
  cache.insert(addr(1), coords({1, 9}), 0);
  cache.insert(addr(2), coords({2, 9}), 100);
  REQUIRE(cache.getAndTouch(addr(1), 200) != nullptr);  // 2 is now least recently used
  cache.insert(addr(3), coords({3, 9}), 300);
  CHECK(cache.size() == 2);
  CHECK(cache.get(addr(1), 300) != nullptr);
  CHECK(cache.get(addr(2), 300) == nullptr);
  CHECK(cache.get(addr(3), 300) != nullptr);
  // get() does not touch: 1 is now the oldest use and goes next.
  CHECK(cache.get(addr(1), 400) != nullptr);
  cache.insert(addr(4), coords({4, 9}), 400);
  CHECK(cache.get(addr(1), 400) == nullptr);
  CHECK(cache.get(addr(3), 400) != nullptr);
}

TEST_CASE("coord cache: an expired entry is evicted before a live one") {
  CoordCache cache({.capacity = 2, .ttlMs = 100});
  cache.insert(addr(1), coords({1, 9}), 0);   // expires at 100
  cache.insert(addr(2), coords({2, 9}), 50);  // expires at 150
  cache.insert(addr(3), coords({3, 9}), 150);
  CHECK(cache.get(addr(1), 150) == nullptr);
  CHECK(cache.get(addr(2), 150) != nullptr);
  CHECK(cache.get(addr(3), 150) != nullptr);
}

TEST_CASE("coord cache: invalidation by path member, by root, single entry, expired") {
  CoordCache cache({.capacity = 10, .ttlMs = 1000});
  cache.insert(addr(1), coords({1, 5, 9}), 0);
  cache.insert(addr(2), coords({2, 9}), 0);
  cache.insert(addr(3), coords({3, 5, 8}), 0);
  cache.insert(addr(4), coords({4, 8}), 500);
  CHECK(cache.invalidateVia(addr(5)) == 2);
  CHECK(cache.size() == 2);
  CHECK(cache.invalidateOtherRoots(addr(9)) == 1);  // removes 4 (root 8)
  CHECK(cache.get(addr(2), 0) != nullptr);
  cache.insert(addr(4), coords({4, 9}), 500);
  CHECK(cache.remove(addr(2)));
  CHECK_FALSE(cache.remove(addr(2)));
  cache.insert(addr(2), coords({2, 9}), 0);
  CHECK(cache.purgeExpired(1001) == 1);
  CHECK(cache.size() == 1);
  size_t seen = 0;
  cache.forEach([&](const NodeAddr& a, const CoordCacheEntry&) {
    CHECK(a == addr(4));
    ++seen;
  });
  CHECK(seen == 1);
  cache.clear();
  CHECK(cache.size() == 0);
}

}  // namespace
}  // namespace fips::router::routing
