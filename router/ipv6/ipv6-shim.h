// SPDX-License-Identifier: MIT
// The IPv6 shim on FSP port 256, compressed format 0x00 (FIPS spec 05 §2):
// the 40-byte IPv6 header shrinks to 7 bytes (format ‖ ver/TC/flow ‖
// next_header ‖ hop_limit); the addresses come from the session and the
// payload length from the frame. Runs in fips-router; compress takes TUN
// packets, decompress takes Data payloads from remote nodes (untrusted).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "router/ipv6/ipv6-packet.h"

namespace fips::router::ipv6 {

constexpr uint8_t SHIM_FORMAT_COMPRESSED = 0x00;
constexpr size_t SHIM_HEADER_SIZE = 7;  // format(1) ‖ P[0..4] ‖ P[6] ‖ P[7]

// format 0x00 ‖ P[0..4] ‖ P[6] ‖ P[7] ‖ P[40..]. nullopt unless isIpv6(P).
// Extension headers stay in the upper payload; P[4..6] is not consulted.
std::optional<std::vector<uint8_t>> compressIpv6(std::span<const uint8_t> packet);

// Rebuilds the IPv6 packet: version forced to 6, payload length from the
// shim size, src = the session peer's FIPS address, dst = ours. nullopt if
// shorter than 7 bytes, format != 0x00, or the upper payload exceeds 65535.
std::optional<std::vector<uint8_t>> decompressIpv6(std::span<const uint8_t> shim,
                                                   const Ipv6Addr& src, const Ipv6Addr& dst);

// Sets ECN to CE (0b11) in the traffic class of an ECN-capable packet
// (ECT(0) or ECT(1)); Not-ECT packets and buffers under 2 bytes stay as they
// are. Used when the carrying frame had CE set.
void markEcnCe(std::span<uint8_t> packet);

}  // namespace fips::router::ipv6
