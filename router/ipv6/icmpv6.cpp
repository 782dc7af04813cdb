// SPDX-License-Identifier: MIT
// ICMPv6 Destination Unreachable / Packet Too Big generation and the
// per-source rate limit (FIPS spec 05 §1, §3; RFC 4443 §2.4, §3.1, §3.2).
// Runs in fips-router on TUN packets; every access is length-checked first.
#include "router/ipv6/icmpv6.h"

#include <algorithm>
#include <cstring>

namespace fips::router::ipv6 {
namespace {

bool isMulticast(const Ipv6Addr& a) {
  return a[0] == 0xff;
}
bool isUnspecified(const Ipv6Addr& a) {
  return std::all_of(a.begin(), a.end(), [](uint8_t b) { return b == 0; });
}

// IPv6 header ‖ type ‖ code ‖ checksum ‖ word ‖ quote, checksum filled in.
std::vector<uint8_t> buildError(std::span<const uint8_t> packet, uint8_t type, uint8_t code,
                                uint32_t word, const Ipv6Addr& ourAddr) {
  const Ipv6Addr dst = sourceAddr(packet);
  const size_t quote = std::min(packet.size(), ICMPV6_MAX_QUOTE);
  const size_t icmpLen = ICMPV6_HEADER_SIZE + quote;
  std::vector<uint8_t> out(IPV6_HEADER_SIZE + icmpLen);
  out[0] = 0x60;
  out[PAYLOAD_LEN_OFFSET] = static_cast<uint8_t>(icmpLen >> 8U);
  out[PAYLOAD_LEN_OFFSET + 1] = static_cast<uint8_t>(icmpLen & 0xFFU);
  out[NEXT_HEADER_OFFSET] = IPPROTO_ICMPV6_NUM;
  out[HOP_LIMIT_OFFSET] = ICMPV6_HOP_LIMIT;
  std::copy(ourAddr.begin(), ourAddr.end(), out.begin() + SRC_OFFSET);
  std::copy(dst.begin(), dst.end(), out.begin() + DST_OFFSET);
  const std::span<uint8_t> icmp = std::span(out).subspan(IPV6_HEADER_SIZE);
  icmp[0] = type;
  icmp[1] = code;
  for (size_t i = 0; i < 4; ++i) icmp[4 + i] = static_cast<uint8_t>(word >> (24U - 8U * i));
  std::copy_n(packet.begin(), quote, icmp.begin() + ICMPV6_HEADER_SIZE);
  const uint16_t sum = upperLayerChecksum(ourAddr, dst, IPPROTO_ICMPV6_NUM, icmp);
  icmp[2] = static_cast<uint8_t>(sum >> 8U);
  icmp[3] = static_cast<uint8_t>(sum & 0xFFU);
  return out;
}

}  // namespace

bool mayAnswerWithIcmpError(std::span<const uint8_t> packet) {
  if (!isIpv6(packet)) return false;
  const Ipv6Addr src = sourceAddr(packet);
  if (isUnspecified(src) || isMulticast(src)) return false;
  if (isMulticast(destinationAddr(packet))) return false;
  // RFC 4443 §2.4 (e.1): never answer an ICMPv6 error message (types 0-127).
  if (packet[NEXT_HEADER_OFFSET] == IPPROTO_ICMPV6_NUM && packet.size() > IPV6_HEADER_SIZE &&
      packet[IPV6_HEADER_SIZE] < 128) {
    return false;
  }
  return true;
}

std::optional<std::vector<uint8_t>> buildDestUnreachable(std::span<const uint8_t> packet,
                                                         UnreachableCode code,
                                                         const Ipv6Addr& ourAddr) {
  if (!mayAnswerWithIcmpError(packet)) return std::nullopt;
  return buildError(packet, ICMPV6_DEST_UNREACHABLE, static_cast<uint8_t>(code), 0, ourAddr);
}

std::optional<std::vector<uint8_t>> buildPacketTooBig(std::span<const uint8_t> packet, uint32_t mtu,
                                                      const Ipv6Addr& ourAddr) {
  if (!mayAnswerWithIcmpError(packet)) return std::nullopt;
  return buildError(packet, ICMPV6_PACKET_TOO_BIG, 0, mtu, ourAddr);
}

size_t IcmpRateLimiter::AddrHash::operator()(const Ipv6Addr& a) const {
  uint64_t lo = 0;
  uint64_t hi = 0;
  std::memcpy(&lo, a.data(), 8);
  std::memcpy(&hi, a.data() + 8, 8);
  return std::hash<uint64_t>{}(lo ^ (hi * 0x9E3779B97F4A7C15ULL));
}

bool IcmpRateLimiter::allow(const Ipv6Addr& src, uint64_t nowMs) {
  expire(nowMs);
  const auto it = lastSent_.find(src);
  if (it != lastSent_.end() && nowMs - it->second < minIntervalMs_) return false;
  lastSent_[src] = nowMs;
  return true;
}

void IcmpRateLimiter::expire(uint64_t nowMs) {
  // Sweep at most once per interval so a flood of sources costs O(1) amortized.
  if (nowMs < nextExpiryMs_) return;
  nextExpiryMs_ = nowMs + minIntervalMs_;
  std::erase_if(lastSent_, [&](const auto& kv) { return nowMs - kv.second >= maxAgeMs_; });
}

}  // namespace fips::router::ipv6
