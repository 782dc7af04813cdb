// SPDX-License-Identifier: MIT
// Tests of the TUN outbound decisions, the per-session Packet Too Big check
// and the per-flow MSS ceiling (FIPS spec 05 §1, §3). Test code only.
#include "router/ipv6/tun-outbound.h"

#include <vector>

#include <doctest/doctest.h>

namespace fips::router::ipv6 {
namespace {

constexpr Ipv6Addr OURS = {0xfd, 0xaa, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
constexpr Ipv6Addr PEER = {0xfd, 0x69, 0xe0, 0x8d, 0x65, 0xcc, 0x3a, 0x6b,
                           0x9c, 0x2c, 0x2a, 0xc4, 0xbd, 0x40, 0x5e, 0x4b};
constexpr Ipv6Addr GLOBAL = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};

std::vector<uint8_t> packetTo(const Ipv6Addr& dst, size_t size) {
  std::vector<uint8_t> p(size, 0);
  p[0] = 0x60;
  std::copy(OURS.begin(), OURS.end(), p.begin() + SRC_OFFSET);
  std::copy(dst.begin(), dst.end(), p.begin() + DST_OFFSET);
  return p;
}

TEST_CASE("TUN outbound: send with the identity prefix, hairpin, PTB, unreachable, drop") {
  const auto send = classifyOutbound(packetTo(PEER, 100), OURS, 1203);
  CHECK(send.verdict == OutboundVerdict::SEND);
  CHECK(send.prefix[0] == 0x69);
  CHECK(send.prefix[14] == 0x4b);
  CHECK(classifyOutbound(packetTo(OURS, 2000), OURS, 1203).verdict == OutboundVerdict::HAIRPIN);
  const auto ptb = classifyOutbound(packetTo(PEER, 1204), OURS, 1203);
  CHECK(ptb.verdict == OutboundVerdict::PACKET_TOO_BIG);
  CHECK(ptb.mtu == 1203);
  CHECK(classifyOutbound(packetTo(PEER, 1203), OURS, 1203).verdict == OutboundVerdict::SEND);
  CHECK(classifyOutbound(packetTo(GLOBAL, 100), OURS, 1203).verdict ==
        OutboundVerdict::DEST_UNREACHABLE);
  auto v4 = packetTo(PEER, 100);
  v4[0] = 0x45;
  CHECK(classifyOutbound(v4, OURS, 1203).verdict == OutboundVerdict::DROP);
  CHECK(classifyOutbound(std::vector<uint8_t>(39, 0x60), OURS, 1203).verdict ==
        OutboundVerdict::DROP);
}

TEST_CASE("per-session Packet Too Big only when the path is tighter than the global MTU") {
  CHECK_FALSE(pathPacketTooBig(1200, 1203, 1277));  // 1277 − 77 = 1200: fits exactly
  CHECK(pathPacketTooBig(1201, 1203, 1277) == uint16_t{1200});
  CHECK_FALSE(pathPacketTooBig(1201, 1203, 1400));
  CHECK_FALSE(pathPacketTooBig(1201, 1203, UINT16_MAX));
  CHECK_FALSE(pathPacketTooBig(1201, 1203, 0));
}

TEST_CASE("per-flow MSS: learned path MTU, else the IPv6-minimum ceiling") {
  const uint16_t global = mssCeiling(1500);  // 1363
  CHECK(perFlowMaxMss(global, std::nullopt) == 1143);
  CHECK(perFlowMaxMss(global, 1400) == 1263);
  CHECK(perFlowMaxMss(global, 9000) == global);
  CHECK(perFlowMaxMss(global, 137) == 1143);  // no payload byte fits: conservative
  CHECK(perFlowMaxMss(1000, std::nullopt) == 1000);
}

}  // namespace
}  // namespace fips::router::ipv6
