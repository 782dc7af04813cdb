// SPDX-License-Identifier: MIT
// TCP MSS clamping and L4 checksum recomputation (FIPS spec 05 §3). Runs in
// fips-router on TUN packets; every index is checked against the buffer.
#include "router/ipv6/tcp-mss.h"

#include "router/ipv6/ipv6-packet.h"

namespace fips::router::ipv6 {
namespace {

constexpr size_t TCP_HEADER_MIN = 20;
constexpr size_t TCP_FLAGS_OFFSET = 13;
constexpr uint8_t TCP_FLAG_SYN = 0x02;
constexpr size_t TCP_CHECKSUM_OFFSET = 16;
constexpr size_t UDP_HEADER_SIZE = 8;
constexpr size_t UDP_CHECKSUM_OFFSET = 6;
constexpr uint8_t TCP_OPT_END = 0;
constexpr uint8_t TCP_OPT_NOP = 1;
constexpr uint8_t TCP_OPT_MSS = 2;
constexpr uint8_t TCP_OPT_MSS_LEN = 4;

}  // namespace

bool clampTcpMss(std::span<uint8_t> packet, uint16_t maxMss) {
  if (!isIpv6(packet) || packet[NEXT_HEADER_OFFSET] != IPPROTO_TCP_NUM || maxMss == 0) {
    return false;
  }
  const std::span<uint8_t> tcp = packet.subspan(IPV6_HEADER_SIZE);
  if (tcp.size() < TCP_HEADER_MIN || (tcp[TCP_FLAGS_OFFSET] & TCP_FLAG_SYN) == 0) return false;
  const size_t headerLen = size_t{tcp[12]} >> 4U << 2U;
  if (headerLen < TCP_HEADER_MIN || headerLen > tcp.size()) return false;
  size_t i = TCP_HEADER_MIN;
  while (i < headerLen) {
    const uint8_t kind = tcp[i];
    if (kind == TCP_OPT_END) break;
    if (kind == TCP_OPT_NOP) {
      ++i;
      continue;
    }
    if (i + 1 >= headerLen) break;
    const size_t len = tcp[i + 1];
    if (len < 2 || i + len > headerLen) break;
    if (kind == TCP_OPT_MSS && len == TCP_OPT_MSS_LEN) {
      const auto mss = static_cast<uint16_t>(tcp[i + 2] << 8U | tcp[i + 3]);
      if (mss <= maxMss) return false;
      tcp[i + 2] = static_cast<uint8_t>(maxMss >> 8U);
      tcp[i + 3] = static_cast<uint8_t>(maxMss & 0xFFU);
      recomputeL4Checksum(packet);
      return true;
    }
    i += len;
  }
  return false;
}

void recomputeL4Checksum(std::span<uint8_t> packet) {
  if (!isIpv6(packet)) return;
  const size_t payloadLen =
      size_t{packet[PAYLOAD_LEN_OFFSET]} << 8U | packet[PAYLOAD_LEN_OFFSET + 1];
  if (payloadLen == 0 || IPV6_HEADER_SIZE + payloadLen > packet.size()) return;
  const uint8_t proto = packet[NEXT_HEADER_OFFSET];
  size_t csumOff = 0;
  if (proto == IPPROTO_TCP_NUM && payloadLen >= TCP_HEADER_MIN) {
    csumOff = TCP_CHECKSUM_OFFSET;
  } else if (proto == IPPROTO_UDP_NUM && payloadLen >= UDP_HEADER_SIZE) {
    csumOff = UDP_CHECKSUM_OFFSET;
  } else {
    return;
  }
  const std::span<uint8_t> l4 = packet.subspan(IPV6_HEADER_SIZE, payloadLen);
  l4[csumOff] = 0;
  l4[csumOff + 1] = 0;
  uint16_t sum = upperLayerChecksum(sourceAddr(packet), destinationAddr(packet), proto, l4);
  if (sum == 0 && proto == IPPROTO_UDP_NUM) sum = 0xFFFF;
  l4[csumOff] = static_cast<uint8_t>(sum >> 8U);
  l4[csumOff + 1] = static_cast<uint8_t>(sum & 0xFFU);
}

}  // namespace fips::router::ipv6
