// SPDX-License-Identifier: MIT
#include "router/routing/coords-wire.h"

#include "router/routing/routing-test-util.h"

namespace fips::router::routing {
namespace {

using test::addrHex;
using test::coords;
using test::fromHex;
using test::toHex;

TEST_CASE("coords wire: known bytes and round trip") {
  std::vector<uint8_t> out;
  encodeCoords(coords({3, 1}), out);
  CHECK(toHex(out) == "0200" + addrHex(3) + addrHex(1));
  CHECK(coordsWireSize(coords({3, 1})) == 34);

  out.push_back(0xEE);  // trailing byte, not part of the field
  const auto decoded = decodeCoords(out, false);
  REQUIRE(decoded.ok());
  CHECK(decoded->coords == coords({3, 1}));
  CHECK(decoded->size == 34);
}

TEST_CASE("coords wire: typed errors") {
  CHECK(decodeCoords(fromHex("01"), false).error() == CoordsWireError::SHORT);
  CHECK(decodeCoords(fromHex("0100" + addrHex(1).substr(2)), false).error() ==
        CoordsWireError::TRUNCATED);
  CHECK(decodeCoords(fromHex("ffff"), true).error() == CoordsWireError::TRUNCATED);
  CHECK(decodeCoords(fromHex("0000"), false).error() == CoordsWireError::ZERO_COUNT);
  const auto empty = decodeCoords(fromHex("0000"), true);
  REQUIRE(empty.ok());
  CHECK(empty->coords.empty());
  CHECK(empty->size == 2);
}

}  // namespace
}  // namespace fips::router::routing
