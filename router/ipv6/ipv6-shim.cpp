// SPDX-License-Identifier: MIT
// IPv6 shim compress/decompress and ECN CE marking (FIPS spec 05 §2). Runs in
// fips-router on TUN packets and on untrusted Data payloads; every access is
// length-checked first.
#include "router/ipv6/ipv6-shim.h"

#include <algorithm>

namespace fips::router::ipv6 {

std::optional<std::vector<uint8_t>> compressIpv6(std::span<const uint8_t> packet) {
  if (!isIpv6(packet)) return std::nullopt;
  const auto upper = packet.subspan(IPV6_HEADER_SIZE);
  std::vector<uint8_t> out(SHIM_HEADER_SIZE + upper.size());
  out[0] = SHIM_FORMAT_COMPRESSED;
  std::copy_n(packet.begin(), 4, out.begin() + 1);  // version | TC | flow label, verbatim
  out[5] = packet[NEXT_HEADER_OFFSET];
  out[6] = packet[HOP_LIMIT_OFFSET];
  std::copy(upper.begin(), upper.end(), out.begin() + SHIM_HEADER_SIZE);
  return out;
}

std::optional<std::vector<uint8_t>> decompressIpv6(std::span<const uint8_t> shim,
                                                   const Ipv6Addr& src, const Ipv6Addr& dst) {
  if (shim.size() < SHIM_HEADER_SIZE || shim[0] != SHIM_FORMAT_COMPRESSED) return std::nullopt;
  const auto upper = shim.subspan(SHIM_HEADER_SIZE);
  if (upper.size() > UINT16_MAX) return std::nullopt;
  std::vector<uint8_t> out(IPV6_HEADER_SIZE + upper.size());
  out[0] = static_cast<uint8_t>(0x60U | (shim[1] & 0x0FU));
  std::copy_n(shim.begin() + 2, 3, out.begin() + 1);
  out[PAYLOAD_LEN_OFFSET] = static_cast<uint8_t>(upper.size() >> 8U);
  out[PAYLOAD_LEN_OFFSET + 1] = static_cast<uint8_t>(upper.size() & 0xFFU);
  out[NEXT_HEADER_OFFSET] = shim[5];
  out[HOP_LIMIT_OFFSET] = shim[6];
  std::copy(src.begin(), src.end(), out.begin() + SRC_OFFSET);
  std::copy(dst.begin(), dst.end(), out.begin() + DST_OFFSET);
  std::copy(upper.begin(), upper.end(), out.begin() + IPV6_HEADER_SIZE);
  return out;
}

void markEcnCe(std::span<uint8_t> packet) {
  if (packet.size() < 2) return;
  // Traffic class = low nibble of byte 0 ‖ high nibble of byte 1; ECN = its low 2 bits,
  // which are bits 5-4 of byte 1.
  const uint8_t ecn = (packet[1] >> 4U) & 0x03U;
  if (ecn == 0) return;
  packet[1] = static_cast<uint8_t>(packet[1] | 0x30U);
}

}  // namespace fips::router::ipv6
