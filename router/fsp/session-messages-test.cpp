// SPDX-License-Identifier: MIT
// Known-answer tests of the FSP inner header and session message bodies
// (FIPS spec 04 §3, §3.1, §3.3): Data ports, PathMtuNotification, the 46- and
// 66-byte session reports. Test code for the fips-router codecs.
#include "router/fsp/fsp-test-util.h"
// fsp-test-util.h must come first (it sets up doctest).
#include "router/fsp/session-messages.h"

namespace fips::router::fsp {
namespace {

using namespace test;

TEST_CASE("inner header: timestamp, msg_type, inner_flags") {
  const std::vector<uint8_t> body = {0xAA, 0xBB};
  const auto pt =
      encodeInnerPlaintext({.timestampMs = 0x11223344, .msgType = 0x10, .innerFlags = 1}, body);
  CHECK(toHex(pt) == "443322111001aabb");
  const auto back = decodeInnerPlaintext(pt);
  REQUIRE(back.ok());
  CHECK(back->header.timestampMs == 0x11223344);
  CHECK(back->header.msgType == 0x10);
  CHECK(back->header.innerFlags == INNER_FLAG_SP);
  CHECK(sameBytes(back->body, body));
  CHECK(decodeInnerPlaintext(std::span(pt).first(5)).error() == FspError::SHORT);
  CHECK(decodeInnerPlaintext(std::span(pt).first(6))->body.empty());
}

TEST_CASE("session message types") {
  CHECK(sessionMessageType(0x10) == SessionMessageType::DATA);
  CHECK(sessionMessageType(0x14) == SessionMessageType::COORDS_WARMUP);
  CHECK_FALSE(sessionMessageType(0x0F).has_value());
  CHECK_FALSE(sessionMessageType(0x15).has_value());
}

TEST_CASE("Data: ports LE then payload") {
  CHECK(toHex(encodeDataPorts(PORT_IPV6_SHIM, PORT_IPV6_SHIM)) == "00010001");
  const auto bytes = fromHex("3412785601");
  const auto d = decodeDataBody(bytes);
  REQUIRE(d.ok());
  CHECK(d->srcPort == 0x1234);
  CHECK(d->dstPort == 0x5678);
  CHECK(toHex(d->payload) == "01");
  CHECK(decodeDataBody(fromHex("341278")).error() == FspError::SHORT);
}

TEST_CASE("PathMtuNotification") {
  CHECK(toHex(encodePathMtuNotification(1280)) == "0005");
  CHECK(decodePathMtuNotification(fromHex("0005ff")).value() == 1280);
  CHECK(decodePathMtuNotification(fromHex("05")).error() == FspError::SHORT);
}

TEST_CASE("session SenderReport: 46 bytes, 2 reserved") {
  fmp::SenderReport r{.intervalStartCounter = 0x0102030405060708ULL,
                      .intervalEndCounter = 0x1112131415161718ULL,
                      .intervalStartTimestamp = 0x21222324,
                      .intervalEndTimestamp = 0x31323334,
                      .intervalBytesSent = 0x41424344,
                      .cumulativePacketsSent = 0x5152535455565758ULL,
                      .cumulativeBytesSent = 0x6162636465666768ULL};
  const auto bytes = encodeSessionSenderReport(r);
  CHECK(toHex(bytes) ==
        "0000"
        "0807060504030201"
        "1817161514131211"
        "24232221"
        "34333231"
        "44434241"
        "5857565554535251"
        "6867666564636261");
  CHECK(decodeSessionSenderReport(bytes).value() == r);
  CHECK(decodeSessionSenderReport(std::span(bytes).first(45)).error() == FspError::SHORT);
}

TEST_CASE("session ReceiverReport: 66 bytes, reserved at 0 and 36") {
  fmp::ReceiverReport r{.highestCounter = 0x0102030405060708ULL,
                        .cumulativePacketsRecv = 0x1112131415161718ULL,
                        .cumulativeBytesRecv = 0x2122232425262728ULL,
                        .timestampEcho = 0x31323334,
                        .dwellTime = 0x4142,
                        .maxBurstLoss = 0x5152,
                        .meanBurstLoss = 0x6162,
                        .jitter = 0x71727374,
                        .ecnCeCount = 0x81828384,
                        .owdTrend = -2,
                        .burstLossCount = 0x91929394,
                        .cumulativeReorderCount = 0xa1a2a3a4,
                        .intervalPacketsRecv = 0xb1b2b3b4,
                        .intervalBytesRecv = 0xc1c2c3c4};
  const auto bytes = encodeSessionReceiverReport(r);
  CHECK(toHex(bytes) ==
        "0000"
        "0807060504030201"
        "1817161514131211"
        "2827262524232221"
        "34333231"
        "4241"
        "5251"
        "6261"
        "0000"
        "74737271"
        "84838281"
        "feffffff"
        "94939291"
        "a4a3a2a1"
        "b4b3b2b1"
        "c4c3c2c1");
  CHECK(decodeSessionReceiverReport(bytes).value() == r);
  CHECK(decodeSessionReceiverReport(std::span(bytes).first(65)).error() == FspError::SHORT);
}

}  // namespace
}  // namespace fips::router::fsp
