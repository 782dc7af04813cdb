// SPDX-License-Identifier: MIT
// TUN outbound classification, per-session Packet Too Big and per-flow MSS
// ceilings (FIPS spec 05 §1, §3). Runs in fips-router on TUN packets.
#include "router/ipv6/tun-outbound.h"

#include <algorithm>

namespace fips::router::ipv6 {

Outbound classifyOutbound(std::span<const uint8_t> packet, const Ipv6Addr& ours,
                          uint16_t effectiveMtu) {
  if (!isIpv6(packet)) return {};
  const Ipv6Addr dst = destinationAddr(packet);
  if (dst == ours) return {.verdict = OutboundVerdict::HAIRPIN};
  if (packet.size() > effectiveMtu) {
    return {.verdict = OutboundVerdict::PACKET_TOO_BIG, .mtu = effectiveMtu};
  }
  const auto prefix = fipsPrefix(dst);
  if (!prefix) return {.verdict = OutboundVerdict::DEST_UNREACHABLE};
  return {.verdict = OutboundVerdict::SEND, .prefix = *prefix};
}

std::optional<uint16_t> pathPacketTooBig(size_t packetLen, uint16_t effectiveMtu,
                                         uint16_t pathMtu) {
  if (pathMtu == 0 || pathMtu == UINT16_MAX) return std::nullopt;
  const uint16_t pathIpv6Mtu = effectiveIpv6Mtu(pathMtu);
  if (pathIpv6Mtu < effectiveMtu && packetLen > pathIpv6Mtu) return pathIpv6Mtu;
  return std::nullopt;
}

uint16_t perFlowMaxMss(uint16_t globalMaxMss, std::optional<uint16_t> pathMtu) {
  const uint16_t conservative = std::min(globalMaxMss, DEFAULT_MSS_CEILING);
  if (!pathMtu) return conservative;
  const uint16_t pathMss = mssCeiling(*pathMtu);
  // A path MTU that leaves no room for one payload byte falls back to the
  // conservative ceiling (a clamp to 0 would leave the kernel's MSS in place).
  return pathMss == 0 ? conservative : std::min(globalMaxMss, pathMss);
}

}  // namespace fips::router::ipv6
