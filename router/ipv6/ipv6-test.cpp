// SPDX-License-Identifier: MIT
// Tests of the IPv6 adapter logic with real packet bytes (FIPS spec 05 §1-§3):
// shim compress/decompress, ECN CE, the fd00 prefix mapping, ICMPv6
// Destination Unreachable / Packet Too Big with their checksums checked by an
// independent sum, the rate limit, TCP MSS clamping. Expected checksums were
// computed outside this code (Python one's-complement sum). Test code.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "lib/crypto/test-util.h"
#include "router/ipv6/icmpv6.h"
#include "router/ipv6/ipv6-shim.h"
#include "router/ipv6/tcp-mss.h"

namespace fips::router::ipv6 {
namespace {

using crypto::test::fromHex;
using crypto::test::toHex;

Ipv6Addr addr(const std::string& hex) {
  const auto b = fromHex(hex);
  Ipv6Addr out{};
  std::copy(b.begin(), b.end(), out.begin());
  return out;
}

const Ipv6Addr SRC = addr("fd000000000000000000000000000001");
const Ipv6Addr DST = addr("fd000000000000000000000000000002");
const Ipv6Addr OURS = addr("fd00000000000000000000000000ffff");

// version/TC/flow ‖ payload_len ‖ next header ‖ hop limit ‖ src ‖ dst ‖ upper.
std::vector<uint8_t> packet(const std::string& verTcFlowHex, uint8_t nh, const Ipv6Addr& src,
                            const Ipv6Addr& dst, const std::vector<uint8_t>& upper,
                            uint8_t hop = 64) {
  auto p = fromHex(verTcFlowHex);
  p.push_back(static_cast<uint8_t>(upper.size() >> 8U));
  p.push_back(static_cast<uint8_t>(upper.size() & 0xFFU));
  p.push_back(nh);
  p.push_back(hop);
  p.insert(p.end(), src.begin(), src.end());
  p.insert(p.end(), dst.begin(), dst.end());
  p.insert(p.end(), upper.begin(), upper.end());
  return p;
}

// Independent check: the one's-complement sum over pseudo-header and the
// message with its checksum in place must be 0xffff.
bool checksumVerifies(const Ipv6Addr& src, const Ipv6Addr& dst, uint8_t nh,
                      const std::vector<uint8_t>& msg) {
  std::vector<uint8_t> all(src.begin(), src.end());
  all.insert(all.end(), dst.begin(), dst.end());
  const auto len = static_cast<uint32_t>(msg.size());
  for (int s = 24; s >= 0; s -= 8) all.push_back(static_cast<uint8_t>(len >> s));
  all.insert(all.end(), {0, 0, 0, nh});
  all.insert(all.end(), msg.begin(), msg.end());
  if (all.size() % 2 != 0) all.push_back(0);
  uint64_t sum = 0;
  for (size_t i = 0; i < all.size(); i += 2) sum += uint64_t{all[i]} << 8U | all[i + 1];
  while (sum >> 16U) sum = (sum & 0xFFFFU) + (sum >> 16U);
  return sum == 0xFFFF;
}

const std::string ECHO_REQUEST = "8000aeb81234000161626364";  // checksum 0xaeb8 for SRC → DST

TEST_CASE("shim: compress is exactly spec 05 §2 and round-trips") {
  const auto p = packet("6b812345", IPPROTO_ICMPV6_NUM, SRC, DST, fromHex(ECHO_REQUEST), 7);
  const auto shim = compressIpv6(p);
  REQUIRE(shim);
  CHECK(toHex(*shim) ==
        "00"
        "6b812345"
        "3a"
        "07" +
            ECHO_REQUEST);
  CHECK(shim->size() == p.size() - 33);
  const auto back = decompressIpv6(*shim, SRC, DST);
  REQUIRE(back);
  CHECK(*back == p);
  CHECK(checksumVerifies(SRC, DST, IPPROTO_ICMPV6_NUM,
                         std::vector<uint8_t>(back->begin() + 40, back->end())));
}

TEST_CASE("shim: version forced to 6, payload length from the shim, addresses from the session") {
  const auto shim = fromHex(
      "00"
      "5fabcdef"
      "11"
      "40"
      "0102");
  const auto out = decompressIpv6(shim, SRC, OURS);
  REQUIRE(out);
  CHECK(toHex(std::span(*out).first(8)) == "6fabcdef00021140");
  CHECK(std::equal(SRC.begin(), SRC.end(), out->begin() + 8));
  CHECK(std::equal(OURS.begin(), OURS.end(), out->begin() + 24));
  CHECK(toHex(std::span(*out).subspan(40)) == "0102");
  CHECK(decompressIpv6(fromHex("00600000001140"), SRC, DST)->size() == 40);
}

TEST_CASE("shim: malformed input") {
  CHECK_FALSE(decompressIpv6(fromHex("006000000011"), SRC, DST));
  CHECK_FALSE(decompressIpv6(fromHex("01600000001140"), SRC, DST));
  CHECK_FALSE(compressIpv6(std::vector<uint8_t>(39, 0x60)));
  auto v4 = packet("60000000", 17, SRC, DST, {});
  v4[0] = 0x45;
  CHECK_FALSE(compressIpv6(v4));
}

TEST_CASE("ECN CE marking only on ECT packets") {
  auto ect0 = fromHex("60200000");
  markEcnCe(ect0);
  CHECK(toHex(ect0) == "60300000");
  auto ect1 = fromHex("6a1fffff");
  markEcnCe(ect1);
  CHECK(toHex(ect1) == "6a3fffff");
  auto notEct = fromHex("6fcfffff");
  markEcnCe(notEct);
  CHECK(toHex(notEct) == "6fcfffff");
  std::vector<uint8_t> one = {0x60};
  markEcnCe(one);
  CHECK(one[0] == 0x60);
}

TEST_CASE("fd00 address ↔ 15-byte prefix; MTU rules") {
  const auto p = fipsPrefix(addr("fd69e08d65cc3a6b9c2c2ac4bd405e4b"));
  REQUIRE(p);
  CHECK(toHex(*p) == "69e08d65cc3a6b9c2c2ac4bd405e4b");
  CHECK_FALSE(fipsPrefix(addr("fe800000000000000000000000000001")));
  CHECK(effectiveIpv6Mtu(1280) == 1203);
  CHECK(effectiveIpv6Mtu(50) == 0);
  CHECK(mssCeiling(1280) == DEFAULT_MSS_CEILING);
  CHECK(mssCeiling(100) == 0);
}

TEST_CASE("ICMPv6 Destination Unreachable: layout and checksum") {
  const auto udp = fromHex(
      "303900350008"
      "0000");
  const auto p = packet("60000000", IPPROTO_UDP_NUM, SRC, DST, udp);
  const auto du = buildDestUnreachable(p, UnreachableCode::NO_ROUTE, OURS);
  REQUIRE(du);
  REQUIRE(du->size() == 40 + 8 + p.size());
  CHECK(toHex(std::span(*du).first(8)) ==
        "60000000"
        "0038"
        "3a40");
  CHECK(std::equal(OURS.begin(), OURS.end(), du->begin() + 8));
  CHECK(std::equal(SRC.begin(), SRC.end(), du->begin() + 24));
  CHECK((*du)[40] == 1);
  CHECK((*du)[41] == 0);
  CHECK(toHex(std::span(*du).subspan(44, 4)) == "00000000");
  CHECK(std::equal(p.begin(), p.end(), du->begin() + 48));
  CHECK(checksumVerifies(OURS, SRC, IPPROTO_ICMPV6_NUM,
                         std::vector<uint8_t>(du->begin() + 40, du->end())));
}

TEST_CASE("ICMPv6 Packet Too Big: MTU field, quote truncated to 1232 bytes") {
  const auto p = packet("60000000", IPPROTO_UDP_NUM, SRC, DST, std::vector<uint8_t>(2000, 0xA5));
  const auto ptb = buildPacketTooBig(p, 1203, OURS);
  REQUIRE(ptb);
  CHECK(ptb->size() == 1280);
  CHECK((*ptb)[40] == 2);
  CHECK(toHex(std::span(*ptb).subspan(44, 4)) == "000004b3");
  CHECK(toHex(std::span(*ptb).subspan(4, 2)) == "04d8");  // 1240
  CHECK(checksumVerifies(OURS, SRC, IPPROTO_ICMPV6_NUM,
                         std::vector<uint8_t>(ptb->begin() + 40, ptb->end())));
}

TEST_CASE("ICMPv6 errors never answer errors, multicast or the unspecified source") {
  const auto echo = fromHex(ECHO_REQUEST);
  CHECK(mayAnswerWithIcmpError(packet("60000000", IPPROTO_ICMPV6_NUM, SRC, DST, echo)));
  auto err = echo;
  err[0] = 1;
  CHECK_FALSE(buildDestUnreachable(packet("60000000", IPPROTO_ICMPV6_NUM, SRC, DST, err),
                                   UnreachableCode::NO_ROUTE, OURS));
  CHECK_FALSE(buildPacketTooBig(packet("60000000", 17, Ipv6Addr{}, DST, {}), 1203, OURS));
  CHECK_FALSE(buildPacketTooBig(
      packet("60000000", 17, addr("ff020000000000000000000000000001"), DST, {}), 1203, OURS));
  CHECK_FALSE(buildDestUnreachable(
      packet("60000000", 17, SRC, addr("ff020000000000000000000000000002"), {}),
      UnreachableCode::NO_ROUTE, OURS));
  CHECK_FALSE(mayAnswerWithIcmpError(std::vector<uint8_t>(39, 0x60)));
}

TEST_CASE("ICMP rate limit: one per source per 100 ms, sources independent, old entries expire") {
  IcmpRateLimiter limiter;
  CHECK(limiter.allow(SRC, 1000));
  CHECK_FALSE(limiter.allow(SRC, 1099));
  CHECK(limiter.allow(DST, 1099));
  CHECK(limiter.allow(SRC, 1100));
  CHECK(limiter.size() == 2);
  CHECK(limiter.allow(OURS, 20'000));
  CHECK(limiter.size() == 1);
}

TEST_CASE("TCP MSS clamp rewrites the option and the checksum") {
  const auto syn = fromHex("30390050000003e8000000006002200049b10000020405b4");
  auto p = packet("60000000", IPPROTO_TCP_NUM, SRC, DST, syn);
  CHECK(checksumVerifies(SRC, DST, IPPROTO_TCP_NUM, syn));
  CHECK(clampTcpMss(p, DEFAULT_MSS_CEILING));
  CHECK(toHex(std::span(p).subspan(40)) == "30390050000003e800000000600220004aee000002040477");
  CHECK_FALSE(clampTcpMss(p, DEFAULT_MSS_CEILING));  // already at the ceiling
  CHECK_FALSE(clampTcpMss(p, 0));
}

TEST_CASE("TCP MSS clamp leaves non-SYN, non-TCP and malformed options alone") {
  auto ack = fromHex("30390050000003e8000000006010200049b10000020405b4");
  auto p = packet("60000000", IPPROTO_TCP_NUM, SRC, DST, ack);
  CHECK_FALSE(clampTcpMss(p, 1000));
  auto syn = fromHex("30390050000003e8000000006002200049b10000020405b4");
  auto udp = packet("60000000", IPPROTO_UDP_NUM, SRC, DST, syn);
  CHECK_FALSE(clampTcpMss(udp, 1000));
  auto badLen = syn;
  badLen[21] = 0;  // option length 0 stops the walk
  auto q = packet("60000000", IPPROTO_TCP_NUM, SRC, DST, badLen);
  CHECK_FALSE(clampTcpMss(q, 1000));
  auto overlong = syn;
  overlong[12] = 0xF0;  // data offset 60 > segment
  auto r = packet("60000000", IPPROTO_TCP_NUM, SRC, DST, overlong);
  CHECK_FALSE(clampTcpMss(r, 1000));
}

TEST_CASE("L4 checksum: UDP zero becomes 0xffff; bad payload_len is a no-op") {
  auto p = packet("60000000", IPPROTO_UDP_NUM, SRC, DST, fromHex("0001000200090000ff"));
  recomputeL4Checksum(p);
  CHECK(checksumVerifies(SRC, DST, IPPROTO_UDP_NUM, std::vector<uint8_t>(p.begin() + 40, p.end())));
  auto bad = p;
  bad[5] = 0x20;
  const auto before = bad;
  recomputeL4Checksum(bad);
  CHECK(bad == before);
}

}  // namespace
}  // namespace fips::router::ipv6
