// SPDX-License-Identifier: MIT
// Tests of the link-layer MMP report codecs (spec 02 §9.1-§9.2): field
// offsets, round trips, minimum lengths, ignored reserved and trailing bytes.
// Test code for the fips-router codecs; inputs are crafted here.
#include "router/fmp/link-reports.h"

#include "router/fmp/fmp-test-util.h"
#include "router/fmp/link-message.h"

namespace fips::router::fmp {
namespace {

SenderReport sampleSender() {
  return {.intervalStartCounter = 0x1111111111111101ULL,
          .intervalEndCounter = 0x2222222222222202ULL,
          .intervalStartTimestamp = 0x33333303,
          .intervalEndTimestamp = 0x44444404,
          .intervalBytesSent = 0x55555505,
          .cumulativePacketsSent = 0x6666666666666606ULL,
          .cumulativeBytesSent = 0x7777777777777707ULL};
}

ReceiverReport sampleReceiver() {
  return {.highestCounter = 0x0102030405060708ULL,
          .cumulativePacketsRecv = 0x1112131415161718ULL,
          .cumulativeBytesRecv = 0x2122232425262728ULL,
          .timestampEcho = 0x31323334,
          .dwellTime = 0x4142,
          .maxBurstLoss = 0x5152,
          .meanBurstLoss = 0x6162,
          .jitter = 0x71727374,
          .ecnCeCount = 0x81828384,
          .owdTrend = -123456,
          .burstLossCount = 0x91929394,
          .cumulativeReorderCount = 0xA1A2A3A4,
          .intervalPacketsRecv = 0xB1B2B3B4,
          .intervalBytesRecv = 0xC1C2C3C4};
}

TEST_CASE("SenderReport: 48 bytes at the spec 02 §9.1 offsets, round trip") {
  const auto wire = encodeSenderReport(sampleSender());
  CHECK(wire[0] == 0x01);
  CHECK(wire[1] == 0);
  CHECK(wire[3] == 0);
  CHECK(wire[4] == 0x01);   // interval_start_counter LSB
  CHECK(wire[12] == 0x02);  // interval_end_counter LSB
  CHECK(wire[20] == 0x03);
  CHECK(wire[24] == 0x04);
  CHECK(wire[28] == 0x05);
  CHECK(wire[32] == 0x06);
  CHECK(wire[40] == 0x07);
  CHECK(wire[47] == 0x77);
  const auto env = decodeLinkMessage(wire);
  REQUIRE(env.ok());
  CHECK(env->type == LinkMessageType::SENDER_REPORT);
  CHECK(decodeSenderReport(env->body).value() == sampleSender());
}

TEST_CASE("ReceiverReport: 68 bytes at the spec 02 §9.2 offsets, round trip") {
  const auto wire = encodeReceiverReport(sampleReceiver());
  CHECK(wire[0] == 0x02);
  CHECK(wire[4] == 0x08);
  CHECK(wire[12] == 0x18);
  CHECK(wire[20] == 0x28);
  CHECK(wire[28] == 0x34);
  CHECK(wire[32] == 0x42);
  CHECK(wire[34] == 0x52);
  CHECK(wire[36] == 0x62);
  CHECK(wire[38] == 0);
  CHECK(wire[39] == 0);
  CHECK(wire[40] == 0x74);
  CHECK(wire[44] == 0x84);
  CHECK(wire[48] == 0xC0);  // -123456 = 0xFFFE1DC0
  CHECK(wire[51] == 0xFF);
  CHECK(wire[52] == 0x94);
  CHECK(wire[56] == 0xA4);
  CHECK(wire[60] == 0xB4);
  CHECK(wire[64] == 0xC4);
  CHECK(wire[67] == 0xC1);
  const auto env = decodeLinkMessage(wire);
  REQUIRE(env.ok());
  CHECK(decodeReceiverReport(env->body).value() == sampleReceiver());
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
