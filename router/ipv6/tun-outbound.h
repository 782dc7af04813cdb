// SPDX-License-Identifier: MIT
// The decisions of the TUN outbound path that need no session state (FIPS
// spec 05 §1, §3; reference handle_tun_outbound): what to do with a packet
// read from fips0 before it is handed to the session layer, the
// per-destination Packet Too Big check once a session's path MTU is known,
// and the TCP MSS ceiling per flow. Runs in fips-router on packets from the
// TUN (local, unvalidated).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "router/ipv6/ipv6-packet.h"

namespace fips::router::ipv6 {

enum class OutboundVerdict : uint8_t {
  SEND,              // look prefix up in the identity cache (miss: Destination Unreachable)
  HAIRPIN,           // addressed to ourselves: write it back to the TUN
  PACKET_TOO_BIG,    // answer with Packet Too Big(mtu) (rate limited), drop
  DEST_UNREACHABLE,  // not fd00::/8: answer with Destination Unreachable (no route), drop
  DROP,              // not an IPv6 packet
};

struct Outbound {
  OutboundVerdict verdict = OutboundVerdict::DROP;
  FipsPrefix prefix{};  // SEND: destination bytes 1..=15
  uint16_t mtu = 0;     // PACKET_TOO_BIG: the MTU to report (bytes)
};

// First step for a TUN packet: DROP unless IPv6; HAIRPIN if the destination
// is ours; PACKET_TOO_BIG if longer than effectiveMtu (transport MTU − 77);
// DEST_UNREACHABLE unless the destination is in fd00::/8; else SEND.
Outbound classifyOutbound(std::span<const uint8_t> packet, const Ipv6Addr& ours,
                          uint16_t effectiveMtu);

// For an established session whose source-side path MTU is pathMtu (wire
// bytes; PathMtuState::UNKNOWN or 0 when none): the Packet Too Big MTU if
// path_mtu − 77 is below effectiveMtu and the packet exceeds it, else nullopt.
std::optional<uint16_t> pathPacketTooBig(size_t packetLen, uint16_t effectiveMtu, uint16_t pathMtu);

// TCP MSS ceiling for a flow to or from one peer (clamp outbound SYNs and
// inbound SYN-ACKs with it): min(globalMaxMss, mssCeiling(pathMtu)) when a
// usable path MTU is known, else min(globalMaxMss, 1143), the IPv6-minimum
// ceiling. globalMaxMss is mssCeiling(transport MTU).
uint16_t perFlowMaxMss(uint16_t globalMaxMss, std::optional<uint16_t> pathMtu);

}  // namespace fips::router::ipv6
