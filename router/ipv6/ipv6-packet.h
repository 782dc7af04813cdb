// SPDX-License-Identifier: MIT
// IPv6 header constants and helpers shared by the IPv6 adapter (FIPS spec 05
// §1-§3): header offsets, the fd00::/8 FIPS address ↔ 15-byte identity-cache
// prefix mapping, the effective MTU rule, and the upper-layer checksum with
// the IPv6 pseudo-header. Runs in fips-router on packets read from the TUN
// (local, but unvalidated) and rebuilt from remote sessions (untrusted).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace fips::router::ipv6 {

constexpr size_t IPV6_HEADER_SIZE = 40;
constexpr size_t IPV6_ADDR_SIZE = 16;
constexpr size_t PAYLOAD_LEN_OFFSET = 4;  // u16 BE
constexpr size_t NEXT_HEADER_OFFSET = 6;
constexpr size_t HOP_LIMIT_OFFSET = 7;
constexpr size_t SRC_OFFSET = 8;
constexpr size_t DST_OFFSET = 24;
constexpr uint8_t IPPROTO_TCP_NUM = 6;
constexpr uint8_t IPPROTO_UDP_NUM = 17;
constexpr uint8_t IPPROTO_ICMPV6_NUM = 58;
constexpr uint8_t FIPS_ADDRESS_PREFIX = 0xfd;
constexpr size_t FIPS_PREFIX_SIZE = 15;  // NodeAddr[0..15] = IPv6 bytes 1..=15
constexpr uint16_t MIN_IPV6_MTU = 1280;

// Bytes an IPv6 packet gains on the wire (spec 04 §7): L → L + 77.
constexpr uint16_t FIPS_IPV6_OVERHEAD = 77;
// TUN-side MSS ceiling when no path MTU is known (effective MTU of 1280 − 60).
constexpr uint16_t DEFAULT_MSS_CEILING = 1143;

using Ipv6Addr = std::array<uint8_t, IPV6_ADDR_SIZE>;
using FipsPrefix = std::array<uint8_t, FIPS_PREFIX_SIZE>;

// True for at least 40 bytes with version nibble 6.
bool isIpv6(std::span<const uint8_t> packet);
// Source / destination address of a packet that isIpv6().
Ipv6Addr sourceAddr(std::span<const uint8_t> packet);
Ipv6Addr destinationAddr(std::span<const uint8_t> packet);

// The identity-cache key of a FIPS address: bytes 1..=15, or nullopt unless
// byte 0 is 0xfd (spec 05 §1: non-fd destinations get Destination Unreachable).
std::optional<FipsPrefix> fipsPrefix(const Ipv6Addr& addr);

// Effective IPv6 MTU for a transport (or path) MTU: mtu − 77, saturating at 0
// (spec 05 §3; 1280 → 1203).
uint16_t effectiveIpv6Mtu(uint16_t transportMtu);
// Largest TCP MSS for a transport (or path) MTU: effective − 40 − 20, saturating.
uint16_t mssCeiling(uint16_t transportMtu);

// RFC 8200 §8.1 upper-layer checksum over the pseudo-header (src, dst, u32
// length = data.size(), next header) and data, big-endian, with the
// checksum field inside data already zeroed by the caller. The one's
// complement result; the caller maps 0 to 0xffff for UDP.
uint16_t upperLayerChecksum(const Ipv6Addr& src, const Ipv6Addr& dst, uint8_t nextHeader,
                            std::span<const uint8_t> data);

}  // namespace fips::router::ipv6
