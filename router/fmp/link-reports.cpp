// SPDX-License-Identifier: MIT
// Codec for the MMP report fields, shared by the link-layer reports (FIPS spec
// 02 §9.1-§9.2) and the FSP session reports (spec 04 §3.3), which differ only
// in what precedes the fields. Runs in fips-router; bodies come from peers and
// are untrusted: lengths are checked before any read.
#include "router/fmp/link-reports.h"

#include "router/fmp/fmp-le.h"

namespace fips::router::fmp {

namespace {

// Offsets from the first field (after type byte and reserved lead-in).
namespace sr {
constexpr size_t START_COUNTER = 0;
constexpr size_t END_COUNTER = 8;
constexpr size_t START_TS = 16;
constexpr size_t END_TS = 20;
constexpr size_t BYTES_SENT = 24;
constexpr size_t CUM_PACKETS = 28;
constexpr size_t CUM_BYTES = 36;
static_assert(CUM_BYTES + 8 == SENDER_REPORT_FIELDS_SIZE);
static_assert(1 + LINK_REPORT_RESERVED + SENDER_REPORT_FIELDS_SIZE == SENDER_REPORT_SIZE);
}  // namespace sr

namespace rr {
constexpr size_t HIGHEST = 0;
constexpr size_t CUM_PACKETS = 8;
constexpr size_t CUM_BYTES = 16;
constexpr size_t TS_ECHO = 24;
constexpr size_t DWELL = 28;
constexpr size_t MAX_BURST = 30;
constexpr size_t MEAN_BURST = 32;
constexpr size_t JITTER = 36;  // 34..35 reserved
constexpr size_t ECN_CE = 40;
constexpr size_t OWD_TREND = 44;
constexpr size_t BURST_COUNT = 48;
constexpr size_t REORDER = 52;
constexpr size_t INT_PACKETS = 56;
constexpr size_t INT_BYTES = 60;
static_assert(INT_BYTES + 4 == RECEIVER_REPORT_FIELDS_SIZE);
static_assert(1 + LINK_REPORT_RESERVED + RECEIVER_REPORT_FIELDS_SIZE == RECEIVER_REPORT_SIZE);
}  // namespace rr

}  // namespace

std::optional<SenderReport> decodeSenderReportFields(std::span<const uint8_t> body,
                                                     size_t reserved) {
  if (body.size() < reserved || body.size() - reserved < SENDER_REPORT_FIELDS_SIZE) {
    return std::nullopt;
  }
  const auto f = body.subspan(reserved);
  return SenderReport{
      .intervalStartCounter = loadLe64(f, sr::START_COUNTER),
      .intervalEndCounter = loadLe64(f, sr::END_COUNTER),
      .intervalStartTimestamp = loadLe32(f, sr::START_TS),
      .intervalEndTimestamp = loadLe32(f, sr::END_TS),
      .intervalBytesSent = loadLe32(f, sr::BYTES_SENT),
      .cumulativePacketsSent = loadLe64(f, sr::CUM_PACKETS),
      .cumulativeBytesSent = loadLe64(f, sr::CUM_BYTES),
  };
}

std::optional<ReceiverReport> decodeReceiverReportFields(std::span<const uint8_t> body,
                                                         size_t reserved) {
  if (body.size() < reserved || body.size() - reserved < RECEIVER_REPORT_FIELDS_SIZE) {
    return std::nullopt;
  }
  const auto f = body.subspan(reserved);
  return ReceiverReport{
      .highestCounter = loadLe64(f, rr::HIGHEST),
      .cumulativePacketsRecv = loadLe64(f, rr::CUM_PACKETS),
      .cumulativeBytesRecv = loadLe64(f, rr::CUM_BYTES),
      .timestampEcho = loadLe32(f, rr::TS_ECHO),
      .dwellTime = loadLe16(f, rr::DWELL),
      .maxBurstLoss = loadLe16(f, rr::MAX_BURST),
      .meanBurstLoss = loadLe16(f, rr::MEAN_BURST),
      .jitter = loadLe32(f, rr::JITTER),
      .ecnCeCount = loadLe32(f, rr::ECN_CE),
      .owdTrend = static_cast<int32_t>(loadLe32(f, rr::OWD_TREND)),
      .burstLossCount = loadLe32(f, rr::BURST_COUNT),
      .cumulativeReorderCount = loadLe32(f, rr::REORDER),
      .intervalPacketsRecv = loadLe32(f, rr::INT_PACKETS),
      .intervalBytesRecv = loadLe32(f, rr::INT_BYTES),
  };
}

void encodeSenderReportFields(std::span<uint8_t> out, size_t reserved, const SenderReport& report) {
  const auto f = out.subspan(reserved, SENDER_REPORT_FIELDS_SIZE);
  storeLe64(f, sr::START_COUNTER, report.intervalStartCounter);
  storeLe64(f, sr::END_COUNTER, report.intervalEndCounter);
  storeLe32(f, sr::START_TS, report.intervalStartTimestamp);
  storeLe32(f, sr::END_TS, report.intervalEndTimestamp);
  storeLe32(f, sr::BYTES_SENT, report.intervalBytesSent);
  storeLe64(f, sr::CUM_PACKETS, report.cumulativePacketsSent);
  storeLe64(f, sr::CUM_BYTES, report.cumulativeBytesSent);
}

void encodeReceiverReportFields(std::span<uint8_t> out, size_t reserved,
                                const ReceiverReport& report) {
  const auto f = out.subspan(reserved, RECEIVER_REPORT_FIELDS_SIZE);
  storeLe64(f, rr::HIGHEST, report.highestCounter);
  storeLe64(f, rr::CUM_PACKETS, report.cumulativePacketsRecv);
  storeLe64(f, rr::CUM_BYTES, report.cumulativeBytesRecv);
  storeLe32(f, rr::TS_ECHO, report.timestampEcho);
  storeLe16(f, rr::DWELL, report.dwellTime);
  storeLe16(f, rr::MAX_BURST, report.maxBurstLoss);
  storeLe16(f, rr::MEAN_BURST, report.meanBurstLoss);
  storeLe32(f, rr::JITTER, report.jitter);
  storeLe32(f, rr::ECN_CE, report.ecnCeCount);
  storeLe32(f, rr::OWD_TREND, static_cast<uint32_t>(report.owdTrend));
  storeLe32(f, rr::BURST_COUNT, report.burstLossCount);
  storeLe32(f, rr::REORDER, report.cumulativeReorderCount);
  storeLe32(f, rr::INT_PACKETS, report.intervalPacketsRecv);
  storeLe32(f, rr::INT_BYTES, report.intervalBytesRecv);
}

FmpResult<SenderReport> decodeSenderReport(std::span<const uint8_t> body) {
  const auto r = decodeSenderReportFields(body, LINK_REPORT_RESERVED);
  if (!r) return FmpError::SHORT;
  return *r;
}

FmpResult<ReceiverReport> decodeReceiverReport(std::span<const uint8_t> body) {
  const auto r = decodeReceiverReportFields(body, LINK_REPORT_RESERVED);
  if (!r) return FmpError::SHORT;
  return *r;
}

std::array<uint8_t, SENDER_REPORT_SIZE> encodeSenderReport(const SenderReport& report) {
  std::array<uint8_t, SENDER_REPORT_SIZE> out{};
  out[0] = static_cast<uint8_t>(LinkMessageType::SENDER_REPORT);
  encodeSenderReportFields(std::span(out).subspan(1), LINK_REPORT_RESERVED, report);
  return out;
}

std::array<uint8_t, RECEIVER_REPORT_SIZE> encodeReceiverReport(const ReceiverReport& report) {
  std::array<uint8_t, RECEIVER_REPORT_SIZE> out{};
  out[0] = static_cast<uint8_t>(LinkMessageType::RECEIVER_REPORT);
  encodeReceiverReportFields(std::span(out).subspan(1), LINK_REPORT_RESERVED, report);
  return out;
}

}  // namespace fips::router::fmp
