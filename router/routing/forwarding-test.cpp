// SPDX-License-Identifier: MIT
#include "router/routing/forwarding.h"

#include "router/routing/fake-mesh-view.h"
#include "router/routing/routing-signal.h"
#include "router/routing/routing-test-util.h"

namespace fips::router::routing {
namespace {

using test::addr;
using test::addrHex;
using test::coords;
using test::FakeMeshView;
using test::fromHex;
using test::toHex;

// Root 0x01. We are 0x50 = [50, 01]. SRC 0x40 is a direct peer; DEST 0x90 =
// [90, 30, 01] is reached through peer 0x30 = [30, 01].
const NodeAddr ME = addr(0x50);
const NodeAddr SRC = addr(0x40);
const NodeAddr DEST = addr(0x90);
const NodeAddr HOP = addr(0x30);

struct Fixture {
  FakeMeshView view{ME, coords({0x50, 0x01})};
  CoordCache cache{{.capacity = 10, .ttlMs = 100000}};
  Forwarder forwarder;
  Fixture() {
    view.addPeer(SRC, coords({0x40, 0x50, 0x01}));
    view.addPeer(HOP, coords({0x30, 0x01}), {DEST});
  }
  std::vector<uint8_t> body(const NodeAddr& dest, uint8_t ttl, uint16_t pathMtu = 1500,
                            std::vector<uint8_t> payload = {0xAB, 0xCD}) {
    const fmp::SessionDatagram dg{.ttl = ttl,
                                  .pathMtu = pathMtu,
                                  .srcAddr = SRC.bytes(),
                                  .destAddr = dest.bytes(),
                                  .payload = payload};
    auto message = fmp::encodeSessionDatagram(dg);
    return {message.begin() + 1, message.end()};
  }
  ForwardResult receive(const std::vector<uint8_t>& b, uint64_t now = 0) {
    return forwarder.onSessionDatagram(view, cache, b, now);
  }
  uint64_t drops(ForwardDrop d) const {
    return forwarder.counters().dropPackets[static_cast<size_t>(d)];
  }
};

TEST_CASE("forwarding: a datagram for this node is delivered whatever its TTL") {
  Fixture f;
  for (const uint8_t ttl : std::vector<uint8_t>{0, 1, 64}) {
    const auto b = f.body(ME, ttl);
    const ForwardResult r = f.receive(b);
    CHECK(r.action == ForwardAction::DELIVER_LOCAL);
    CHECK(NodeAddr(r.datagram.srcAddr) == SRC);
    CHECK(r.datagram.pathMtu == 1500);
    CHECK(toHex(r.datagram.payload) == "abcd");
    CHECK_FALSE(r.signal.has_value());
  }
  CHECK(f.forwarder.counters().deliveredPackets == 3);
  CHECK(f.forwarder.counters().deliveredBytes == 3 * 37);
}

TEST_CASE("forwarding: a forwarder decrements first and drops at 0") {
  Fixture f;
  f.cache.insert(DEST, coords({0x90, 0x30, 0x01}), 0);
  for (const uint8_t ttl : std::vector<uint8_t>{0, 1}) {
    const ForwardResult r = f.receive(f.body(DEST, ttl));
    CHECK(r.action == ForwardAction::DROP);
    CHECK(r.drop == ForwardDrop::TTL_EXHAUSTED);
    CHECK_FALSE(r.signal.has_value());
  }
  CHECK(f.drops(ForwardDrop::TTL_EXHAUSTED) == 2);

  const ForwardResult r = f.receive(f.body(DEST, 2));
  REQUIRE(r.action == ForwardAction::FORWARD);
  REQUIRE(r.forward.has_value());
  CHECK(r.forward->peer == HOP);
  // 00 ‖ ttl 1 ‖ path_mtu 1500 (0x05dc; link MTU unknown = 0xFFFF) ‖ src ‖ dest ‖ payload
  CHECK(toHex(r.forward->message) ==
        "00"
        "01"
        "dc05" +
            addrHex(0x40) + addrHex(0x90) + "abcd");
  CHECK(r.routeClass == RouteClass::CROSSLINK_DESCEND);  // 0x30 is our sibling
  CHECK(f.forwarder.counters().forwardedPackets == 1);
  CHECK(f.forwarder.counters().routeClass[static_cast<size_t>(RouteClass::CROSSLINK_DESCEND)] == 1);
}

TEST_CASE("forwarding: path_mtu is min-folded with the next link's MTU") {
  Fixture f;
  f.cache.insert(DEST, coords({0x90, 0x30, 0x01}), 0);
  f.view.peer(HOP).linkMtu = 1400;
  auto r = f.receive(f.body(DEST, 64, 1500));
  REQUIRE(r.forward.has_value());
  CHECK(fmp::decodeSessionDatagram(std::span(r.forward->message).subspan(1))->pathMtu == 1400);
  r = f.receive(f.body(DEST, 64, 1300));
  REQUIRE(r.forward.has_value());
  CHECK(fmp::decodeSessionDatagram(std::span(r.forward->message).subspan(1))->pathMtu == 1300);
}

// The signal datagram: 00 ‖ ttl 64 ‖ ffff ‖ src = us ‖ dest = original source ‖ FSP signal.
RoutingSignal signalIn(const LinkSend& send) {
  CHECK(send.peer == SRC);
  const auto dg = fmp::decodeSessionDatagram(std::span(send.message).subspan(1));
  REQUIRE(dg.ok());
  CHECK(dg->ttl == 64);
  CHECK(dg->pathMtu == 0xFFFF);
  CHECK(NodeAddr(dg->srcAddr) == ME);
  CHECK(NodeAddr(dg->destAddr) == SRC);
  const auto signal = decodeRoutingSignal(dg->payload.subspan(FSP_PREFIX_SIZE));
  REQUIRE(signal.ok());
  return signal.value();
}

TEST_CASE("forwarding: no coordinates → drop and CoordsRequired back to the source") {
  Fixture f;
  const ForwardResult r = f.receive(f.body(DEST, 64));
  CHECK(r.action == ForwardAction::DROP);
  CHECK(r.drop == ForwardDrop::NO_ROUTE);
  REQUIRE(r.signal.has_value());
  CHECK(toHex(r.signal->message) ==
        "00"
        "40"
        "ffff" +
            addrHex(0x50) + addrHex(0x40) +
            "00042200"
            "2000" +
            addrHex(0x90) + addrHex(0x50));
  CHECK(signalIn(*r.signal) == RoutingSignal{CoordsRequired{.destAddr = DEST, .reporter = ME}});
  CHECK(f.drops(ForwardDrop::NO_ROUTE) == 1);
  CHECK(f.forwarder.counters().signalsSent == 1);
}

TEST_CASE("forwarding: coordinates but no closer peer → PathBroken with them") {
  Fixture f;
  f.cache.insert(DEST, coords({0x90, 0x30, 0x01}), 0);
  f.view.peer(HOP).sendReady = false;
  const ForwardResult r = f.receive(f.body(DEST, 64));
  CHECK(r.drop == ForwardDrop::NO_ROUTE);
  REQUIRE(r.signal.has_value());
  CHECK(signalIn(*r.signal) ==
        RoutingSignal{PathBroken{
            .destAddr = DEST, .reporter = ME, .lastKnownCoords = coords({0x90, 0x30, 0x01})}});
}

TEST_CASE("forwarding: signals are rate limited per destination (100 ms)") {
  Fixture f;
  CHECK(f.receive(f.body(DEST, 64), 1000).signal.has_value());
  CHECK_FALSE(f.receive(f.body(DEST, 64), 1099).signal.has_value());
  CHECK(f.receive(f.body(addr(0x91), 64), 1099).signal.has_value());  // another destination
  CHECK(f.receive(f.body(DEST, 64), 1100).signal.has_value());
  CHECK(f.forwarder.counters().signalsRateLimited == 1);
  CHECK(f.drops(ForwardDrop::NO_ROUTE) == 4);
}

TEST_CASE("forwarding: no route back to the source → the signal is dropped silently") {
  Fixture f;
  f.view.peer(SRC).sendReady = false;
  const ForwardResult r = f.receive(f.body(DEST, 64));
  CHECK(r.drop == ForwardDrop::NO_ROUTE);
  CHECK_FALSE(r.signal.has_value());
  CHECK(f.forwarder.counters().signalsNoRouteBack == 1);
}

TEST_CASE("forwarding: a frame larger than the next link's MTU → MtuExceeded") {
  Fixture f;
  f.cache.insert(DEST, coords({0x90, 0x30, 0x01}), 0);
  // 36-byte datagram header + 200 payload + 36 FMP overhead = 272 > 256.
  f.view.peer(HOP).linkMtu = 256;
  const ForwardResult r = f.receive(f.body(DEST, 64, 1500, std::vector<uint8_t>(200, 0x11)));
  CHECK(r.action == ForwardAction::DROP);
  CHECK(r.drop == ForwardDrop::MTU_EXCEEDED);
  REQUIRE(r.signal.has_value());
  CHECK(signalIn(*r.signal) ==
        RoutingSignal{MtuExceeded{.destAddr = DEST, .reporter = ME, .mtu = 256}});
  // 236 + 36 = 272 fits a 272-byte link.
  f.view.peer(HOP).linkMtu = 272;
  CHECK(f.receive(f.body(DEST, 64, 1500, std::vector<uint8_t>(200, 0x11)), 1000).action ==
        ForwardAction::FORWARD);
}

TEST_CASE("forwarding: malformed envelope and send errors are counted") {
  Fixture f;
  const auto shortBody = fromHex("40ffff");
  const ForwardResult r = f.receive(shortBody);
  CHECK(r.action == ForwardAction::DROP);
  CHECK(r.drop == ForwardDrop::DECODE_ERROR);
  f.forwarder.recordSendError(50);
  CHECK(f.drops(ForwardDrop::DECODE_ERROR) == 1);
  CHECK(f.drops(ForwardDrop::SEND_ERROR) == 1);
  CHECK(f.forwarder.counters().dropBytes[static_cast<size_t>(ForwardDrop::SEND_ERROR)] == 50);
  CHECK(f.forwarder.counters().receivedPackets == 1);
  CHECK(std::string(toString(ForwardDrop::TTL_EXHAUSTED)) == "ttl_exhausted");
}

}  // namespace
}  // namespace fips::router::routing
