// SPDX-License-Identifier: MIT
#include "router/routing/routing-signal.h"

#include "router/routing/routing-test-util.h"

namespace fips::router::routing {
namespace {

using test::addr;
using test::addrHex;
using test::coords;
using test::fromHex;
using test::toHex;

std::span<const uint8_t> afterPrefix(const std::vector<uint8_t>& message) {
  return std::span(message).subspan(FSP_PREFIX_SIZE);
}

TEST_CASE("routing signal: CoordsRequired known bytes (38 total)") {
  const RoutingSignal signal = CoordsRequired{.destAddr = addr(0xDD), .reporter = addr(0xAA)};
  const auto bytes = encodeRoutingSignal(signal);
  CHECK(toHex(bytes) ==
        "00042200"
        "2000" +
            addrHex(0xDD) + addrHex(0xAA));
  CHECK(bytes.size() == 38);
  const auto decoded = decodeRoutingSignal(afterPrefix(bytes));
  REQUIRE(decoded.ok());
  CHECK(decoded.value() == signal);
  CHECK(signalDestAddr(decoded.value()) == addr(0xDD));
}

TEST_CASE("routing signal: PathBroken known bytes, with and without coordinates") {
  const RoutingSignal signal = PathBroken{
      .destAddr = addr(0xDD), .reporter = addr(0xAA), .lastKnownCoords = coords({0xDD, 1})};
  const auto bytes = encodeRoutingSignal(signal);
  CHECK(toHex(bytes) ==
        "00044400"
        "2100" +
            addrHex(0xDD) + addrHex(0xAA) + "0200" + addrHex(0xDD) + addrHex(1));
  const auto decoded = decodeRoutingSignal(afterPrefix(bytes));
  REQUIRE(decoded.ok());
  CHECK(decoded.value() == signal);

  const RoutingSignal bare =
      PathBroken{.destAddr = addr(0xDD), .reporter = addr(0xAA), .lastKnownCoords = {}};
  const auto bareBytes = encodeRoutingSignal(bare);
  CHECK(toHex(bareBytes) ==
        "00042400"
        "2100" +
            addrHex(0xDD) + addrHex(0xAA) + "0000");
  const auto bareDecoded = decodeRoutingSignal(afterPrefix(bareBytes));
  REQUIRE(bareDecoded.ok());
  CHECK(bareDecoded.value() == bare);
}

TEST_CASE("routing signal: MtuExceeded known bytes (40 total)") {
  const RoutingSignal signal =
      MtuExceeded{.destAddr = addr(0xDD), .reporter = addr(0xAA), .mtu = 1280};
  const auto bytes = encodeRoutingSignal(signal);
  CHECK(toHex(bytes) ==
        "00042400"
        "2200" +
            addrHex(0xDD) + addrHex(0xAA) + "0005");
  CHECK(bytes.size() == 40);
  const auto decoded = decodeRoutingSignal(afterPrefix(bytes));
  REQUIRE(decoded.ok());
  CHECK(decoded.value() == signal);
}

TEST_CASE("routing signal: the flags byte is ignored and trailing bytes accepted") {
  auto bytes = fromHex("22ff" + addrHex(1) + addrHex(2) + "dc05" + "0102");
  const auto decoded = decodeRoutingSignal(bytes);
  REQUIRE(decoded.ok());
  CHECK(std::get<MtuExceeded>(decoded.value()).mtu == 1500);
}

TEST_CASE("routing signal: typed errors") {
  CHECK(decodeRoutingSignal({}).error() == SignalError::EMPTY);
  CHECK(decodeRoutingSignal(fromHex("2300")).error() == SignalError::UNKNOWN_TYPE);
  CHECK(decodeRoutingSignal(fromHex("10")).error() == SignalError::UNKNOWN_TYPE);
  // Minimum bodies after the type byte: 33 / 35 / 35.
  const std::string addrs = addrHex(1) + addrHex(2);
  CHECK(decodeRoutingSignal(fromHex("2000" + addrs.substr(2))).error() == SignalError::SHORT);
  CHECK(decodeRoutingSignal(fromHex("2000" + addrs)).ok());
  CHECK(decodeRoutingSignal(fromHex("2100" + addrs + "00")).error() == SignalError::SHORT);
  CHECK(decodeRoutingSignal(fromHex("2200" + addrs + "00")).error() == SignalError::SHORT);
  CHECK(decodeRoutingSignal(fromHex("2100" + addrs + "0100" + addrHex(3).substr(2))).error() ==
        SignalError::TRUNCATED_COORDS);
  CHECK(std::string(toString(SignalError::TRUNCATED_COORDS)) == "truncated_coords");
}

}  // namespace
}  // namespace fips::router::routing
