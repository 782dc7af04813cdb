// SPDX-License-Identifier: MIT
#include "router/stp/coordinates.h"

#include <doctest/doctest.h>

namespace fips::router::stp {
namespace {

NodeAddr addr(uint8_t first) {
  std::array<uint8_t, NodeAddr::SIZE> bytes{};
  bytes[0] = first;
  return NodeAddr(bytes);
}

}  // namespace

TEST_CASE("coordinates: root, depth and membership") {
  const Coordinates c({addr(5), addr(3), addr(1)});
  CHECK(c.self() == addr(5));
  CHECK(c.root() == addr(1));
  CHECK(c.depth() == 2);
  CHECK(c.contains(addr(3)));
  CHECK_FALSE(c.contains(addr(4)));
  const Coordinates empty;
  CHECK_FALSE(empty.root().has_value());
  CHECK(empty.depth() == 0);
}

TEST_CASE("coordinates: distance through the lowest common ancestor") {
  // Tree: 1 is root; 2 and 3 are its children; 4 is under 2; 5 under 3.
  const Coordinates root({addr(1)});
  const Coordinates n2({addr(2), addr(1)});
  const Coordinates n4({addr(4), addr(2), addr(1)});
  const Coordinates n5({addr(5), addr(3), addr(1)});
  CHECK(n4.distance(n5) == 4);
  CHECK(n4.lcaDepth(n5) == 0);
  CHECK(n4.distance(n2) == 1);
  CHECK(n4.lcaDepth(n2) == 1);
  CHECK(n4.distance(n4) == 0);
  CHECK(root.distance(n5) == 2);
  CHECK(n5.distance(root) == 2);
}

TEST_CASE("coordinates: different roots or empty paths are infinitely apart") {
  const Coordinates a({addr(4), addr(1)});
  const Coordinates b({addr(5), addr(2)});
  CHECK(a.distance(b) == DISTANCE_INFINITE);
  CHECK(a.distance(Coordinates()) == DISTANCE_INFINITE);
  CHECK(Coordinates().distance(a) == DISTANCE_INFINITE);
}

}  // namespace fips::router::stp
