// SPDX-License-Identifier: MIT
// ICMPv6 errors the IPv6 adapter writes back into the TUN (FIPS spec 05 §1,
// §3; RFC 4443): Destination Unreachable and Packet Too Big, the rules for
// when an error may be sent, and a per-source rate limit. Runs in
// fips-router; the offending packets come from the TUN (local, unvalidated).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "router/ipv6/ipv6-packet.h"

namespace fips::router::ipv6 {

constexpr uint8_t ICMPV6_DEST_UNREACHABLE = 1;
constexpr uint8_t ICMPV6_PACKET_TOO_BIG = 2;
constexpr size_t ICMPV6_HEADER_SIZE = 8;
// Quoted bytes of the offending packet, so the error fits in 1280 bytes.
constexpr size_t ICMPV6_MAX_QUOTE = MIN_IPV6_MTU - IPV6_HEADER_SIZE - ICMPV6_HEADER_SIZE;  // 1232
constexpr uint8_t ICMPV6_HOP_LIMIT = 64;

// Destination Unreachable codes (RFC 4443 §3.1).
enum class UnreachableCode : uint8_t {
  NO_ROUTE = 0,
  ADMIN_PROHIBITED = 1,
  BEYOND_SCOPE = 2,
  ADDRESS_UNREACHABLE = 3,
  PORT_UNREACHABLE = 4,
};

// Whether an ICMPv6 error may answer packet: an IPv6 packet whose source is
// neither unspecified (::) nor multicast, whose destination is not
// multicast, and which is not itself an ICMPv6 error (type < 128 directly
// after the 40-byte header; extension headers are not walked, as in the
// reference).
bool mayAnswerWithIcmpError(std::span<const uint8_t> packet);

// The whole IPv6 packet of a Destination Unreachable from ourAddr to the
// offender's source, quoting up to 1232 bytes, checksum set. nullopt if
// mayAnswerWithIcmpError() says no.
std::optional<std::vector<uint8_t>> buildDestUnreachable(std::span<const uint8_t> packet,
                                                         UnreachableCode code,
                                                         const Ipv6Addr& ourAddr);

// The whole IPv6 packet of a Packet Too Big (MTU u32 BE, bytes) from ourAddr
// to the offender's source; same quoting and rules.
std::optional<std::vector<uint8_t>> buildPacketTooBig(std::span<const uint8_t> packet, uint32_t mtu,
                                                      const Ipv6Addr& ourAddr);

// At most one ICMPv6 error per source address per interval (100 ms by
// default); entries older than 10 s are forgotten. Clock injected (ms).
class IcmpRateLimiter {
 public:
  explicit IcmpRateLimiter(uint64_t minIntervalMs = 100, uint64_t maxAgeMs = 10'000)
      : minIntervalMs_(minIntervalMs), maxAgeMs_(maxAgeMs) {}

  // True (and the send recorded) if src may get an error now.
  bool allow(const Ipv6Addr& src, uint64_t nowMs);
  size_t size() const { return lastSent_.size(); }

 private:
  struct AddrHash {
    size_t operator()(const Ipv6Addr& a) const;
  };
  void expire(uint64_t nowMs);

  uint64_t minIntervalMs_;
  uint64_t maxAgeMs_;
  uint64_t nextExpiryMs_ = 0;
  std::unordered_map<Ipv6Addr, uint64_t, AddrHash> lastSent_;
};

}  // namespace fips::router::ipv6
