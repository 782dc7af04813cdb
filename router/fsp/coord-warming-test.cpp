// SPDX-License-Identifier: MIT
// Tests of coordinate cache warming from FSP headers (FIPS spec 03 §7):
// Setup and Ack cache both fields under the datagram's addresses, CP
// messages their non-empty fields, other messages nothing, malformed ones
// are reported, nothing is cached under the warming node's own address.
// Test code only.
#include "router/fsp/fsp-test-util.h"
// fsp-test-util.h must come first (it sets up doctest).
#include "router/fsp/coord-warming.h"
#include "router/fsp/encrypted-message.h"
#include "router/fsp/handshake-messages.h"
#include "router/routing/coords-wire.h"

namespace fips::router::fsp {
namespace {

using namespace test;

const identity::NodeAddr SRC = filledAddr(0x11);
const identity::NodeAddr DEST = filledAddr(0x22);
const identity::NodeAddr ROOT = filledAddr(0x01);
const identity::NodeAddr TRANSIT = filledAddr(0x33);  // the node warming its cache
const Coordinates SRC_COORDS(std::vector<identity::NodeAddr>{SRC, ROOT});
const Coordinates DEST_COORDS(std::vector<identity::NodeAddr>{DEST, ROOT});

TEST_CASE("warming: SessionSetup and SessionAck cache both coordinate fields") {
  routing::CoordCache cache;
  SessionSetup setup;
  setup.srcCoords = SRC_COORDS;
  setup.destCoords = DEST_COORDS;
  CHECK(warmCoordCache(cache, TRANSIT, SRC, DEST, encodeSessionSetup(setup), 5) ==
        WarmResult::CACHED);
  REQUIRE(cache.get(SRC, 5) != nullptr);
  CHECK(cache.get(SRC, 5)->coords == SRC_COORDS);
  CHECK(cache.get(DEST, 5)->coords == DEST_COORDS);

  routing::CoordCache ackCache;
  SessionAck ack;
  ack.srcCoords = DEST_COORDS;
  ack.destCoords = SRC_COORDS;
  CHECK(warmCoordCache(ackCache, TRANSIT, DEST, SRC, encodeSessionAck(ack), 5) ==
        WarmResult::CACHED);
  CHECK(ackCache.get(DEST, 5)->coords == DEST_COORDS);
  CHECK(ackCache.get(SRC, 5)->coords == SRC_COORDS);
}

TEST_CASE("warming: CP caches the non-empty fields; no CP, Msg3 and signals cache nothing") {
  routing::CoordCache cache;
  const auto header = encodeFspHeader(FLAG_CP, 0, 3);
  std::vector<uint8_t> msg(header.begin(), header.end());
  routing::encodeCoords(SRC_COORDS, msg);
  routing::encodeCoords(Coordinates{}, msg);
  msg.resize(msg.size() + FSP_TAG_SIZE);
  CHECK(warmCoordCache(cache, TRANSIT, SRC, DEST, msg, 1) == WarmResult::CACHED);
  CHECK(cache.get(SRC, 1) != nullptr);
  CHECK(cache.get(DEST, 1) == nullptr);

  routing::CoordCache empty;
  std::vector<uint8_t> plain(FSP_ENCRYPTED_MIN_SIZE, 0);
  CHECK(warmCoordCache(empty, TRANSIT, SRC, DEST, plain, 1) == WarmResult::NOTHING);
  const auto m3 = encodeSessionMsg3({});
  CHECK(warmCoordCache(empty, TRANSIT, SRC, DEST, m3, 1) == WarmResult::NOTHING);
  CHECK(warmCoordCache(empty, TRANSIT, SRC, DEST, fromHex("00042200"), 1) == WarmResult::NOTHING);
  CHECK(empty.size() == 0);
}

TEST_CASE("warming: malformed Setup/Ack/CP messages are reported and cache nothing") {
  routing::CoordCache cache;
  CHECK(warmCoordCache(cache, TRANSIT, SRC, DEST, fromHex("0100"), 1) == WarmResult::MALFORMED);
  CHECK(warmCoordCache(cache, TRANSIT, SRC, DEST, fromHex("01000100ff"), 1) ==
        WarmResult::MALFORMED);
  CHECK(warmCoordCache(cache, TRANSIT, SRC, DEST, fromHex("02000000"), 1) == WarmResult::MALFORMED);
  std::vector<uint8_t> cp(FSP_ENCRYPTED_MIN_SIZE, 0);
  cp[1] = FLAG_CP;
  cp[12] = 9;  // nine entries do not fit
  CHECK(warmCoordCache(cache, TRANSIT, SRC, DEST, cp, 1) == WarmResult::MALFORMED);
  CHECK(cache.size() == 0);
}

TEST_CASE("warming: the destination caches the source, never its own address") {
  routing::CoordCache cache;
  SessionSetup setup;
  setup.srcCoords = SRC_COORDS;
  setup.destCoords = SRC_COORDS;  // the initiator's own, as when it does not know DEST's
  CHECK(warmCoordCache(cache, DEST, SRC, DEST, encodeSessionSetup(setup), 5) == WarmResult::CACHED);
  CHECK(cache.get(SRC, 5) != nullptr);
  CHECK(cache.get(DEST, 5) == nullptr);
  CHECK(cache.size() == 1);

  const auto header = encodeFspHeader(FLAG_CP, 0, 3);
  std::vector<uint8_t> msg(header.begin(), header.end());
  routing::encodeCoords(SRC_COORDS, msg);
  routing::encodeCoords(DEST_COORDS, msg);
  msg.resize(msg.size() + FSP_TAG_SIZE);
  routing::CoordCache cp;
  CHECK(warmCoordCache(cp, DEST, SRC, DEST, msg, 1) == WarmResult::CACHED);
  CHECK(cp.get(DEST, 1) == nullptr);
  CHECK(cp.size() == 1);
}

}  // namespace
}  // namespace fips::router::fsp
