// SPDX-License-Identifier: MIT
// IPv6 header helpers, FIPS address prefix mapping, MTU rules and the
// pseudo-header checksum (FIPS spec 05 §1, §3). Runs in fips-router; inputs
// are checked for length by the callers documented in the header.
#include "router/ipv6/ipv6-packet.h"

#include <algorithm>

namespace fips::router::ipv6 {
namespace {

Ipv6Addr addrAt(std::span<const uint8_t> packet, size_t off) {
  Ipv6Addr out{};
  std::copy_n(packet.subspan(off, IPV6_ADDR_SIZE).begin(), IPV6_ADDR_SIZE, out.begin());
  return out;
}

uint32_t sumWords(uint32_t sum, std::span<const uint8_t> bytes) {
  size_t i = 0;
  for (; i + 1 < bytes.size(); i += 2) {
    sum += static_cast<uint32_t>(bytes[i] << 8U | bytes[i + 1]);
    sum = (sum & 0xFFFFU) + (sum >> 16U);
  }
  if (i < bytes.size()) sum += static_cast<uint32_t>(bytes[i] << 8U);
  return sum;
}

}  // namespace

bool isIpv6(std::span<const uint8_t> packet) {
  return packet.size() >= IPV6_HEADER_SIZE && (packet[0] >> 4U) == 6;
}

Ipv6Addr sourceAddr(std::span<const uint8_t> packet) {
  return addrAt(packet, SRC_OFFSET);
}

Ipv6Addr destinationAddr(std::span<const uint8_t> packet) {
  return addrAt(packet, DST_OFFSET);
}

std::optional<FipsPrefix> fipsPrefix(const Ipv6Addr& addr) {
  if (addr[0] != FIPS_ADDRESS_PREFIX) return std::nullopt;
  FipsPrefix out{};
  std::copy(addr.begin() + 1, addr.end(), out.begin());
  return out;
}

uint16_t effectiveIpv6Mtu(uint16_t transportMtu) {
  return transportMtu > FIPS_IPV6_OVERHEAD
             ? static_cast<uint16_t>(transportMtu - FIPS_IPV6_OVERHEAD)
             : 0;
}

uint16_t mssCeiling(uint16_t transportMtu) {
  const uint16_t eff = effectiveIpv6Mtu(transportMtu);
  return eff > 60 ? static_cast<uint16_t>(eff - 60) : 0;
}

uint16_t upperLayerChecksum(const Ipv6Addr& src, const Ipv6Addr& dst, uint8_t nextHeader,
                            std::span<const uint8_t> data) {
  uint32_t sum = sumWords(0, src);
  sum = sumWords(sum, dst);
  const auto len = static_cast<uint32_t>(data.size());
  sum += (len >> 16U) + (len & 0xFFFFU) + nextHeader;
  sum = sumWords(sum, data);
  while ((sum >> 16U) != 0) sum = (sum & 0xFFFFU) + (sum >> 16U);
  return static_cast<uint16_t>(~sum & 0xFFFFU);
}

}  // namespace fips::router::ipv6
