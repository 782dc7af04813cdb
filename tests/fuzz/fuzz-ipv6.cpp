// SPDX-License-Identifier: MIT
// libFuzzer target for the IPv6 adapter (FIPS spec 05 §2-§3): the input is
// both an untrusted shim payload (decompress → compress must give it back,
// apart from the forced version nibble) and a TUN packet (ICMPv6 error
// generation, whose checksum must verify, and TCP MSS clamping, which must
// leave a TCP checksum that verifies if it clamped). Fuzzing only; input is
// hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "router/ipv6/icmpv6.h"
#include "router/ipv6/ipv6-shim.h"
#include "router/ipv6/tcp-mss.h"

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
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  checkShim(bytes);
  checkIcmp(bytes);
  checkMss(bytes);
  return 0;
}
