// SPDX-License-Identifier: MIT
// Tests of the link-layer MMP report codecs (spec 02 §9.1-§9.2): field
// offsets, round trips, minimum lengths, ignored reserved and trailing bytes.
// Test code for the fips-router codecs; inputs are crafted here.
#include "router/fmp/link-reports.h"

#include "router/fmp/fmp-test-util.h"
#include "router/fmp/link-message.h"
#include "router/fmp/report-test-samples.h"

namespace fips::router::fmp {
namespace {

using crypto::test::toHex;
using test::SAMPLE_RECEIVER_FIELDS_HEX;
using test::SAMPLE_RECEIVER_REPORT;
using test::SAMPLE_SENDER_FIELDS_HEX;
using test::SAMPLE_SENDER_REPORT;

SenderReport sampleSender() {
  return SAMPLE_SENDER_REPORT;
}
ReceiverReport sampleReceiver() {
  return SAMPLE_RECEIVER_REPORT;
}

TEST_CASE("SenderReport: 48 bytes, type 0x01 and 3 reserved before the fields, round trip") {
  const auto wire = encodeSenderReport(sampleSender());
  CHECK(toHex(wire) == "01000000" + std::string(SAMPLE_SENDER_FIELDS_HEX));
  const auto env = decodeLinkMessage(wire);
  REQUIRE(env.ok());
  CHECK(env->type == LinkMessageType::SENDER_REPORT);
  CHECK(decodeSenderReport(env->body).value() == sampleSender());
}

TEST_CASE("ReceiverReport: 68 bytes, type 0x02 and 3 reserved before the fields, round trip") {
  const auto wire = encodeReceiverReport(sampleReceiver());
  CHECK(toHex(wire) == "02000000" + std::string(SAMPLE_RECEIVER_FIELDS_HEX));
  const auto env = decodeLinkMessage(wire);
  REQUIRE(env.ok());
  CHECK(env->type == LinkMessageType::RECEIVER_REPORT);
  CHECK(decodeReceiverReport(env->body).value() == sampleReceiver());
}

TEST_CASE("report fields: any reserved width, nothing outside the fields written") {
  std::array<uint8_t, 5 + SENDER_REPORT_FIELDS_SIZE> s{};
  s.fill(0xEE);
  encodeSenderReportFields(s, 5, sampleSender());
  CHECK(toHex(s) == "eeeeeeeeee" + std::string(SAMPLE_SENDER_FIELDS_HEX));
  CHECK(decodeSenderReportFields(s, 5) == sampleSender());
  CHECK_FALSE(decodeSenderReportFields(std::span(s).first(s.size() - 1), 5).has_value());
  CHECK_FALSE(decodeSenderReportFields(std::span(s).first(4), 5).has_value());

  std::array<uint8_t, RECEIVER_REPORT_FIELDS_SIZE> r{};
  encodeReceiverReportFields(r, 0, sampleReceiver());
  CHECK(toHex(r) == SAMPLE_RECEIVER_FIELDS_HEX);
  CHECK(decodeReceiverReportFields(r, 0) == sampleReceiver());
  CHECK_FALSE(decodeReceiverReportFields(std::span(r).first(63), 0).has_value());
}

TEST_CASE("reports: SHORT below the minimum; reserved and trailing bytes ignored") {
  auto s = encodeSenderReport(sampleSender());
  const std::span<const uint8_t> sBody = std::span(s).subspan(1);
  CHECK(decodeSenderReport(sBody.first(46)).error() == FmpError::SHORT);
  CHECK(decodeSenderReport({}).error() == FmpError::SHORT);
  s[1] = s[2] = s[3] = 0xEE;
  CHECK(decodeSenderReport(sBody).value() == sampleSender());
  std::vector<uint8_t> sLonger(sBody.begin(), sBody.end());
  sLonger.push_back(0x99);
  CHECK(decodeSenderReport(sLonger).value() == sampleSender());

  auto r = encodeReceiverReport(sampleReceiver());
  const std::span<const uint8_t> rBody = std::span(r).subspan(1);
  CHECK(decodeReceiverReport(rBody.first(66)).error() == FmpError::SHORT);
  r[1] = r[38] = r[39] = 0xEE;
  CHECK(decodeReceiverReport(rBody).value() == sampleReceiver());
  std::vector<uint8_t> rLonger(rBody.begin(), rBody.end());
  rLonger.resize(rLonger.size() + 10, 0x99);
  CHECK(decodeReceiverReport(rLonger).value() == sampleReceiver());
}

}  // namespace
}  // namespace fips::router::fmp
