// SPDX-License-Identifier: MIT
// End to end through MeshNode (issue #6): three nodes in a line A–B–C (A
// and C are not peers) carry IPv6 packets from A's TUN to C's and back
// through an FSP session forwarded by B; an address never resolved gets a
// Destination Unreachable, an oversize packet a Packet Too Big; session MMP
// measures the A–C SRTT. Test code only.
#include <vector>

#include <doctest/doctest.h>

#include "lib/identity/fips-address.h"
#include "router/ipv6/icmpv6.h"
#include "router/ipv6/ipv6-packet.h"
#include "tests/sim/mesh-metrics.h"
#include "tests/sim/simulator.h"
#include "tests/sim/topology.h"
#include "tests/sim/tun-packets.h"

namespace fips::sim {
namespace {

using router::ipv6::Ipv6Addr;

uint8_t icmpType(const std::vector<uint8_t>& packet) {
  return packet.size() > 40 && packet[6] == router::ipv6::IPPROTO_ICMPV6_NUM ? packet[40] : 0;
}

TEST_CASE("session: IPv6 packets cross A–B–C through an FSP session, both ways") {
  Simulator sim(line(3), LinkParams{5, 0, 0.0}, 11);
  REQUIRE(sim.runUntil(30'000, [&] { return treeConsistent(sim); }));
  REQUIRE(settle(sim, 150'000, 900'000));  // bloom filters carry C to A
  SimNode& a = sim.node(0);
  SimNode& c = sim.node(2);
  REQUIRE(a.core->snapshot().peers.size() == 1);
  CollectTun tunA, tunB, tunC;
  a.core->attachTun(&tunA);
  sim.node(1).core->attachTun(&tunB);
  c.core->attachTun(&tunC);
  // As a DNS answer would: A learns C's key, C knows nothing of A.
  a.core->learnIdentity(c.publicKey);

  auto toC = udpPacket(fipsAddr(a), fipsAddr(c), 100, 7);
  const auto sentToC = toC;
  a.core->onTunPacket(toC);
  REQUIRE(sim.runUntil(20'000, [&] { return !tunC.packets.empty(); }));
  CHECK(tunC.packets.front() == sentToC);
  CHECK(tunB.packets.empty());
  CHECK(a.core->sessions().size() == 1);
  CHECK(c.core->sessions().size() == 1);

  // C answers: it learned A's key from the handshake.
  auto toA = udpPacket(fipsAddr(c), fipsAddr(a), 1000, 9);
  const auto sentToA = toA;
  c.core->onTunPacket(toA);
  REQUIRE(sim.runUntil(5'000, [&] { return !tunA.packets.empty(); }));
  CHECK(tunA.packets.front() == sentToA);

  // Many packets both ways on the established session, all in order.
  tunA.packets.clear();
  tunC.packets.clear();
  for (uint8_t i = 0; i < 20; ++i) {
    auto p = udpPacket(fipsAddr(a), fipsAddr(c), 200, i);
    a.core->onTunPacket(p);
    auto q = udpPacket(fipsAddr(c), fipsAddr(a), 300, i);
    c.core->onTunPacket(q);
  }
  sim.runFor(2'000);
  REQUIRE(tunC.packets.size() == 20);
  REQUIRE(tunA.packets.size() == 20);
  for (uint8_t i = 0; i < 20; ++i) {
    CHECK(tunC.packets[i] == udpPacket(fipsAddr(a), fipsAddr(c), 200, i));
    CHECK(tunA.packets[i] == udpPacket(fipsAddr(c), fipsAddr(a), 300, i));
  }
  CHECK(sim.node(1).core->forwarding().forwardedPackets >= 42);
  CHECK(a.core->ipv6Counters().delivered == 21);
  // The session counters saw every Data message each way (21 each: the
  // first packet and the 20), and each source counted what it originated.
  const auto sessionA = a.core->sessions().list();
  const auto sessionC = c.core->sessions().list();
  REQUIRE(sessionA.size() == 1);
  REQUIRE(sessionC.size() == 1);
  CHECK(sessionA[0].second.packetsSent == 21);
  CHECK(sessionA[0].second.packetsRecv == 21);
  CHECK(sessionC[0].second.packetsSent == 21);
  CHECK(sessionC[0].second.packetsRecv == 21);
  CHECK(a.core->forwarding().originatedPackets >= 21);
  CHECK(sim.node(1).core->forwarding().originatedPackets == 0);
}

TEST_CASE("session: cancelling a dial to C (disconnect) leaves the A–C session over B alone") {
  Simulator sim(line(3), LinkParams{5, 0, 0.0}, 12);
  REQUIRE(sim.runUntil(30'000, [&] { return treeConsistent(sim); }));
  REQUIRE(settle(sim, 150'000, 900'000));
  SimNode& a = sim.node(0);
  SimNode& c = sim.node(2);
  CollectTun tunA, tunC;
  a.core->attachTun(&tunA);
  c.core->attachTun(&tunC);
  a.core->learnIdentity(c.publicKey);
  auto toC = udpPacket(fipsAddr(a), fipsAddr(c), 100, 7);
  a.core->onTunPacket(toC);
  REQUIRE(sim.runUntil(20'000, [&] { return !tunC.packets.empty(); }));
  REQUIRE(a.core->sessions().size() == 1);
  // fipsctl connect to C at B's address (C never answers there), then
  // disconnect while the handshake is pending.
  REQUIRE(a.core->addEphemeralPeer(c.publicKey, sim.node(1).addr));
  CHECK(a.core->pendingHandshakes() == 1);
  a.core->removePeer(c.nodeAddr);
  CHECK(a.core->pendingHandshakes() == 0);
  CHECK(a.core->sessions().size() == 1);
  tunC.packets.clear();
  auto again = udpPacket(fipsAddr(a), fipsAddr(c), 100, 8);
  a.core->onTunPacket(again);
  sim.runFor(1'000);
  CHECK(tunC.packets.size() == 1);
  CHECK(a.core->sessions().size() == 1);
}

TEST_CASE("session MMP: an A–B–C session measures its SRTT (2 hops × 5 ms each way)") {
  Simulator sim(line(3), LinkParams{5, 0, 0.0}, 14);
  REQUIRE(sim.runUntil(30'000, [&] { return treeConsistent(sim); }));
  REQUIRE(settle(sim, 150'000, 900'000));
  SimNode& a = sim.node(0);
  SimNode& c = sim.node(2);
  CollectTun tunC;
  c.core->attachTun(&tunC);
  a.core->learnIdentity(c.publicKey);
  auto toC = udpPacket(fipsAddr(a), fipsAddr(c), 100, 7);
  a.core->onTunPacket(toC);
  REQUIRE(sim.runUntil(20'000, [&] { return !tunC.packets.empty(); }));
  // One Data packet is enough: the session reports then sustain each other.
  sim.runFor(10'000);
  const auto ab = a.core->sessions().info(c.nodeAddr);
  const auto cb = c.core->sessions().info(a.nodeAddr);
  REQUIRE(ab.has_value());
  REQUIRE(cb.has_value());
  REQUIRE(ab->mmp.has_value());
  REQUIRE(cb->mmp.has_value());
  REQUIRE(ab->mmp->srttMs.has_value());
  REQUIRE(cb->mmp->srttMs.has_value());
  // 20 ms on the wire; the tick a report waits for is taken out as dwell.
  CHECK(*ab->mmp->srttMs >= 20.0);
  CHECK(*ab->mmp->srttMs <= 30.0);
  CHECK(*cb->mmp->srttMs >= 20.0);
  CHECK(*cb->mmp->srttMs <= 30.0);
  CHECK(ab->mmp->lossRate == 0.0);
  CHECK(ab->mmp->etx == doctest::Approx(1.0));
  CHECK(ab->mmp->receiverReportsRecv >= 5);
  CHECK(ab->mmp->senderIntervalMs == 500);  // clamp(2 × SRTT, 500 ms, 10 s)
  CHECK(ab->packetsSent == 1);              // reports are not Data
}

TEST_CASE("session MMP: the probe's session (no data) measures an RTT after one warmup") {
  Simulator sim(line(3), LinkParams{5, 0, 0.0}, 15);
  REQUIRE(sim.runUntil(30'000, [&] { return treeConsistent(sim); }));
  REQUIRE(settle(sim, 150'000, 900'000));
  SimNode& a = sim.node(0);
  SimNode& c = sim.node(2);
  a.core->learnIdentity(c.publicKey);
  // As the probe: the path stage first (C's coordinates by a lookup).
  a.core->lookup(c.nodeAddr);
  REQUIRE(sim.runUntil(10'000, [&] { return a.core->cachedCoords(c.nodeAddr) != nullptr; }));
  REQUIRE(a.core->openSession(c.nodeAddr));
  CHECK_FALSE(a.core->openSession(c.nodeAddr));
  REQUIRE(sim.runUntil(5'000, [&] {
    const auto i = a.core->sessions().info(c.nodeAddr);
    return i && i->state == router::fsp::SessionState::ESTABLISHED;
  }));
  sim.runFor(100);
  REQUIRE(a.core->sendSessionWarmup(c.nodeAddr));
  REQUIRE(sim.runUntil(3'000, [&] {
    const auto i = a.core->sessions().info(c.nodeAddr);
    return i->mmp && i->mmp->srttMs.has_value();
  }));
  const auto info = a.core->sessions().info(c.nodeAddr);
  CHECK(info->openedForProbe);
  CHECK(*info->mmp->srttMs >= 20.0);
  CHECK(*info->mmp->srttMs <= 30.0);
}

TEST_CASE("session: unknown fd00 address, oversize packet and hairpin are answered locally") {
  Simulator sim(line(3), LinkParams{5, 0, 0.0}, 12);
  REQUIRE(sim.runUntil(30'000, [&] { return treeConsistent(sim); }));
  REQUIRE(settle(sim, 150'000, 900'000));  // bloom filters carry C to A
  SimNode& a = sim.node(0);
  CollectTun tunA;
  a.core->attachTun(&tunA);

  Ipv6Addr unknown{};
  unknown[0] = 0xfd;
  unknown[15] = 1;
  auto p = udpPacket(fipsAddr(a), unknown, 10, 1);
  a.core->onTunPacket(p);
  REQUIRE(tunA.packets.size() == 1);
  CHECK(icmpType(tunA.packets[0]) == router::ipv6::ICMPV6_DEST_UNREACHABLE);
  CHECK(router::ipv6::destinationAddr(tunA.packets[0]) == fipsAddr(a));

  sim.runFor(200);  // past the ICMPv6 rate limit
  a.core->learnIdentity(sim.node(2).publicKey);
  auto big = udpPacket(fipsAddr(a), fipsAddr(sim.node(2)), 1250, 2);  // > 1280 − 77
  a.core->onTunPacket(big);
  REQUIRE(tunA.packets.size() == 2);
  CHECK(icmpType(tunA.packets[1]) == router::ipv6::ICMPV6_PACKET_TOO_BIG);
  const auto& ptb = tunA.packets[1];
  const uint32_t mtu =
      (uint32_t{ptb[44]} << 24) | (uint32_t{ptb[45]} << 16) | (uint32_t{ptb[46]} << 8) | ptb[47];
  CHECK(mtu == 1280 - 77);
  CHECK(a.core->sessions().size() == 0);

  auto self = udpPacket(fipsAddr(a), fipsAddr(a), 10, 3);
  const auto selfCopy = self;
  a.core->onTunPacket(self);
  REQUIRE(tunA.packets.size() == 3);
  CHECK(tunA.packets[2] == selfCopy);
}

TEST_CASE("session: a transit link with a smaller MTU answers MtuExceeded; the source tightens") {
  Simulator sim(line(3), LinkParams{5, 0, 0.0}, 13);
  REQUIRE(sim.runUntil(30'000, [&] { return treeConsistent(sim); }));
  REQUIRE(settle(sim, 150'000, 900'000));
  SimNode& a = sim.node(0);
  SimNode& c = sim.node(2);
  a.core->setTransportMtu(1472);
  sim.node(1).core->setTransportMtu(1280);
  c.core->setTransportMtu(1472);
  CollectTun tunA, tunC;
  a.core->attachTun(&tunA);
  c.core->attachTun(&tunC);
  a.core->learnIdentity(c.publicKey);

  auto small = udpPacket(fipsAddr(a), fipsAddr(c), 100, 1);
  a.core->onTunPacket(small);
  REQUIRE(sim.runUntil(20'000, [&] { return tunC.packets.size() == 1; }));

  // 1300 + 77 bytes fit A's link (1472) but not B's (1280).
  auto big = udpPacket(fipsAddr(a), fipsAddr(c), 1252, 2);
  REQUIRE(big.size() == 1300);
  a.core->onTunPacket(big);
  sim.runFor(1'000);
  CHECK(tunC.packets.size() == 1);
  CHECK(sim.node(1).core->forwarding().signalsSent >= 1);

  sim.runFor(200);  // past the ICMPv6 rate limit
  auto again = udpPacket(fipsAddr(a), fipsAddr(c), 1252, 3);
  a.core->onTunPacket(again);
  REQUIRE(!tunA.packets.empty());
  const auto& ptb = tunA.packets.back();
  REQUIRE(icmpType(ptb) == router::ipv6::ICMPV6_PACKET_TOO_BIG);
  const uint32_t mtu =
      (uint32_t{ptb[44]} << 24) | (uint32_t{ptb[45]} << 16) | (uint32_t{ptb[46]} << 8) | ptb[47];
  CHECK(mtu == 1280 - 77);
}

}  // namespace
}  // namespace fips::sim
