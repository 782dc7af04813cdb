// SPDX-License-Identifier: MIT
// Known-answer tests of the FSP inner header and session message bodies
// (FIPS spec 04 §3, §3.1, §3.3): Data ports, PathMtuNotification, the 46- and
// 66-byte session reports. Test code for the fips-router codecs.
#include "router/fsp/fsp-test-util.h"
// fsp-test-util.h must come first (it sets up doctest).
#include "router/fmp/report-test-samples.h"
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

TEST_CASE("session SenderReport: 46 bytes, 2 reserved before the link report fields") {
  const auto& r = fmp::test::SAMPLE_SENDER_REPORT;
  const auto bytes = encodeSessionSenderReport(r);
  CHECK(toHex(bytes) == "0000" + std::string(fmp::test::SAMPLE_SENDER_FIELDS_HEX));
  CHECK(decodeSessionSenderReport(bytes).value() == r);
  CHECK(decodeSessionSenderReport(std::span(bytes).first(45)).error() == FspError::SHORT);
}

TEST_CASE("session ReceiverReport: 66 bytes, 2 reserved before the link report fields") {
  const auto& r = fmp::test::SAMPLE_RECEIVER_REPORT;
  const auto bytes = encodeSessionReceiverReport(r);
  CHECK(toHex(bytes) == "0000" + std::string(fmp::test::SAMPLE_RECEIVER_FIELDS_HEX));
  CHECK(decodeSessionReceiverReport(bytes).value() == r);
  CHECK(decodeSessionReceiverReport(std::span(bytes).first(65)).error() == FspError::SHORT);
}

}  // namespace
}  // namespace fips::router::fsp
