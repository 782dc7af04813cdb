// SPDX-License-Identifier: MIT
// Codec for the link-layer MMP reports (FIPS spec 02 §9.1-§9.2). Runs in
// fips-router; bodies come from peers and are untrusted.
#include "router/fmp/link-reports.h"

#include "router/fmp/fmp-le.h"

namespace fips::router::fmp {

namespace {

// Offsets in the whole message (type byte at 0); body offset = this - 1.
namespace sr {
constexpr size_t START_COUNTER = 4;
constexpr size_t END_COUNTER = 12;
constexpr size_t START_TS = 20;
constexpr size_t END_TS = 24;
constexpr size_t BYTES_SENT = 28;
constexpr size_t CUM_PACKETS = 32;
constexpr size_t CUM_BYTES = 40;
}  // namespace sr

namespace rr {
constexpr size_t HIGHEST = 4;
constexpr size_t CUM_PACKETS = 12;
constexpr size_t CUM_BYTES = 20;
constexpr size_t TS_ECHO = 28;
constexpr size_t DWELL = 32;
constexpr size_t MAX_BURST = 34;
constexpr size_t MEAN_BURST = 36;
constexpr size_t JITTER = 40;  // 38..39 reserved
constexpr size_t ECN_CE = 44;
constexpr size_t OWD_TREND = 48;
constexpr size_t BURST_COUNT = 52;
constexpr size_t REORDER = 56;
constexpr size_t INT_PACKETS = 60;
constexpr size_t INT_BYTES = 64;
}  // namespace rr

}  // namespace

FmpResult<SenderReport> decodeSenderReport(std::span<const uint8_t> body) {
  if (body.size() < SENDER_REPORT_SIZE - 1) return FmpError::SHORT;
  // Index the whole-message offsets by shifting the body back one byte.
  auto u32 = [&](size_t off) { return loadLe32(body, off - 1); };
  auto u64 = [&](size_t off) { return loadLe64(body, off - 1); };
  return SenderReport{
      .intervalStartCounter = u64(sr::START_COUNTER),
      .intervalEndCounter = u64(sr::END_COUNTER),
      .intervalStartTimestamp = u32(sr::START_TS),
      .intervalEndTimestamp = u32(sr::END_TS),
      .intervalBytesSent = u32(sr::BYTES_SENT),
      .cumulativePacketsSent = u64(sr::CUM_PACKETS),
      .cumulativeBytesSent = u64(sr::CUM_BYTES),
  };
}

FmpResult<ReceiverReport> decodeReceiverReport(std::span<const uint8_t> body) {
  if (body.size() < RECEIVER_REPORT_SIZE - 1) return FmpError::SHORT;
  auto u16 = [&](size_t off) { return loadLe16(body, off - 1); };
  auto u32 = [&](size_t off) { return loadLe32(body, off - 1); };
  auto u64 = [&](size_t off) { return loadLe64(body, off - 1); };
  return ReceiverReport{
      .highestCounter = u64(rr::HIGHEST),
      .cumulativePacketsRecv = u64(rr::CUM_PACKETS),
      .cumulativeBytesRecv = u64(rr::CUM_BYTES),
      .timestampEcho = u32(rr::TS_ECHO),
      .dwellTime = u16(rr::DWELL),
      .maxBurstLoss = u16(rr::MAX_BURST),
      .meanBurstLoss = u16(rr::MEAN_BURST),
      .jitter = u32(rr::JITTER),
      .ecnCeCount = u32(rr::ECN_CE),
      .owdTrend = static_cast<int32_t>(u32(rr::OWD_TREND)),
      .burstLossCount = u32(rr::BURST_COUNT),
      .cumulativeReorderCount = u32(rr::REORDER),
      .intervalPacketsRecv = u32(rr::INT_PACKETS),
      .intervalBytesRecv = u32(rr::INT_BYTES),
  };
}

std::array<uint8_t, SENDER_REPORT_SIZE> encodeSenderReport(const SenderReport& report) {
  std::array<uint8_t, SENDER_REPORT_SIZE> out{};
  out[0] = static_cast<uint8_t>(LinkMessageType::SENDER_REPORT);
  storeLe64(out, sr::START_COUNTER, report.intervalStartCounter);
  storeLe64(out, sr::END_COUNTER, report.intervalEndCounter);
  storeLe32(out, sr::START_TS, report.intervalStartTimestamp);
  storeLe32(out, sr::END_TS, report.intervalEndTimestamp);
  storeLe32(out, sr::BYTES_SENT, report.intervalBytesSent);
  storeLe64(out, sr::CUM_PACKETS, report.cumulativePacketsSent);
  storeLe64(out, sr::CUM_BYTES, report.cumulativeBytesSent);
  return out;
}

std::array<uint8_t, RECEIVER_REPORT_SIZE> encodeReceiverReport(const ReceiverReport& report) {
  std::array<uint8_t, RECEIVER_REPORT_SIZE> out{};
  out[0] = static_cast<uint8_t>(LinkMessageType::RECEIVER_REPORT);
  storeLe64(out, rr::HIGHEST, report.highestCounter);
  storeLe64(out, rr::CUM_PACKETS, report.cumulativePacketsRecv);
  storeLe64(out, rr::CUM_BYTES, report.cumulativeBytesRecv);
  storeLe32(out, rr::TS_ECHO, report.timestampEcho);
  storeLe16(out, rr::DWELL, report.dwellTime);
  storeLe16(out, rr::MAX_BURST, report.maxBurstLoss);
  storeLe16(out, rr::MEAN_BURST, report.meanBurstLoss);
  storeLe32(out, rr::JITTER, report.jitter);
  storeLe32(out, rr::ECN_CE, report.ecnCeCount);
  storeLe32(out, rr::OWD_TREND, static_cast<uint32_t>(report.owdTrend));
  storeLe32(out, rr::BURST_COUNT, report.burstLossCount);
  storeLe32(out, rr::REORDER, report.cumulativeReorderCount);
  storeLe32(out, rr::INT_PACKETS, report.intervalPacketsRecv);
  storeLe32(out, rr::INT_BYTES, report.intervalBytesRecv);
  return out;
}

}  // namespace fips::router::fmp
