// SPDX-License-Identifier: MIT
// libFuzzer target for the IPv6 adapter (FIPS spec 05 §2-§3): the input is
// both an untrusted shim payload (decompress → compress must give it back,
// apart from the forced version nibble) and a TUN packet (ICMPv6 error
// generation, whose checksum must verify, and TCP MSS clamping, which must
// leave a TCP checksum that verifies if it clamped), and the TUN outbound
// decisions. Fuzzing only; input is hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "router/ipv6/icmpv6.h"
#include "router/ipv6/ipv6-shim.h"
#include "router/ipv6/tcp-mss.h"
#include "router/ipv6/tun-outbound.h"

namespace {

using namespace fips::router::ipv6;

constexpr Ipv6Addr SRC = {0xfd, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
constexpr Ipv6Addr OURS = {0xfd, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};

void checkShim(std::span<const uint8_t> data) {
  const auto packet = decompressIpv6(data, SRC, OURS);
  if (!packet) return;
  const auto again = compressIpv6(*packet);
  if (!again || again->size() != data.size()) __builtin_trap();
  auto expected = std::vector<uint8_t>(data.begin(), data.end());
  expected[1] = static_cast<uint8_t>(0x60U | (expected[1] & 0x0FU));
  if (*again != expected) __builtin_trap();
}

void checkIcmp(std::span<const uint8_t> data) {
  const auto ptb = buildPacketTooBig(data, 1203, OURS);
  if (!ptb) return;
  if (ptb->size() > MIN_IPV6_MTU) __builtin_trap();
  const auto icmp = std::span<const uint8_t>(*ptb).subspan(IPV6_HEADER_SIZE);
  std::vector<uint8_t> zeroed(icmp.begin(), icmp.end());
  zeroed[2] = 0;
  zeroed[3] = 0;
  const uint16_t sum = upperLayerChecksum(OURS, sourceAddr(data), IPPROTO_ICMPV6_NUM, zeroed);
  if (icmp[2] != (sum >> 8U) || icmp[3] != (sum & 0xFFU)) __builtin_trap();
}

void checkMss(std::span<const uint8_t> data) {
  std::vector<uint8_t> copy(data.begin(), data.end());
  if (!clampTcpMss(copy, 1143)) {
    if (!std::equal(copy.begin(), copy.end(), data.begin(), data.end())) __builtin_trap();
    return;
  }
  if (copy.size() != data.size()) __builtin_trap();
  // With a consistent payload length the new TCP checksum must verify.
  const size_t payloadLen = size_t{copy[PAYLOAD_LEN_OFFSET]} << 8U | copy[PAYLOAD_LEN_OFFSET + 1];
  if (payloadLen < 20 || IPV6_HEADER_SIZE + payloadLen > copy.size()) return;
  std::vector<uint8_t> l4(
      copy.begin() + IPV6_HEADER_SIZE,
      copy.begin() + static_cast<std::ptrdiff_t>(IPV6_HEADER_SIZE + payloadLen));
  const uint16_t stored = static_cast<uint16_t>(l4[16] << 8U | l4[17]);
  l4[16] = 0;
  l4[17] = 0;
  if (upperLayerChecksum(sourceAddr(copy), destinationAddr(copy), IPPROTO_TCP_NUM, l4) != stored) {
    __builtin_trap();
  }
}

void checkOutbound(std::span<const uint8_t> data) {
  const auto out = classifyOutbound(data, OURS, 1203);
  if (out.verdict == OutboundVerdict::SEND && data.size() > 1203) __builtin_trap();
  if (out.verdict == OutboundVerdict::SEND && destinationAddr(data)[0] != FIPS_ADDRESS_PREFIX) {
    __builtin_trap();
  }
  if (data.size() >= 2) {
    const auto mtu = static_cast<uint16_t>(data[0] << 8U | data[1]);
    if (perFlowMaxMss(1143, mtu) > 1143) __builtin_trap();
    if (const auto ptb = pathPacketTooBig(data.size(), 1203, mtu); ptb && *ptb >= data.size()) {
      __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  checkShim(bytes);
  checkIcmp(bytes);
  checkMss(bytes);
  checkOutbound(bytes);
  return 0;
}
