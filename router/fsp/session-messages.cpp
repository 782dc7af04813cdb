// SPDX-License-Identifier: MIT
// FSP inner header and session message bodies (FIPS spec 04 §3, §3.1, §3.3).
// Runs in fips-router on decrypted but untrusted plaintexts; every read is
// bounds-checked first. All integers LE.
#include "router/fsp/session-messages.h"

#include "router/fmp/fmp-le.h"

namespace fips::router::fsp {
namespace {

using fmp::loadLe16;
using fmp::loadLe32;
using fmp::loadLe64;
using fmp::storeLe16;
using fmp::storeLe32;
using fmp::storeLe64;

// Offsets within the session SenderReport body (after 2 reserved bytes).
namespace sr {
constexpr size_t START_COUNTER = 2;
constexpr size_t END_COUNTER = 10;
constexpr size_t START_TS = 18;
constexpr size_t END_TS = 22;
constexpr size_t BYTES_SENT = 26;
constexpr size_t CUM_PACKETS = 30;
constexpr size_t CUM_BYTES = 38;
static_assert(CUM_BYTES + 8 == SESSION_SENDER_REPORT_SIZE);
}  // namespace sr

// Offsets within the session ReceiverReport body (2 reserved at 0 and 36).
namespace rr {
constexpr size_t HIGHEST = 2;
constexpr size_t CUM_PACKETS = 10;
constexpr size_t CUM_BYTES = 18;
constexpr size_t TS_ECHO = 26;
constexpr size_t DWELL = 30;
constexpr size_t MAX_BURST = 32;
constexpr size_t MEAN_BURST = 34;
constexpr size_t JITTER = 38;
constexpr size_t ECN_CE = 42;
constexpr size_t OWD_TREND = 46;
constexpr size_t BURST_COUNT = 50;
constexpr size_t REORDER = 54;
constexpr size_t INT_PACKETS = 58;
constexpr size_t INT_BYTES = 62;
static_assert(INT_BYTES + 4 == SESSION_RECEIVER_REPORT_SIZE);
}  // namespace rr

}  // namespace

std::optional<SessionMessageType> sessionMessageType(uint8_t msgType) {
  if (msgType < static_cast<uint8_t>(SessionMessageType::DATA) ||
      msgType > static_cast<uint8_t>(SessionMessageType::COORDS_WARMUP)) {
    return std::nullopt;
  }
  return static_cast<SessionMessageType>(msgType);
}

FspResult<InnerPlaintext> decodeInnerPlaintext(std::span<const uint8_t> plaintext) {
  if (plaintext.size() < FSP_INNER_HEADER_SIZE) return FspError::SHORT;
  return InnerPlaintext{.header = {.timestampMs = loadLe32(plaintext, 0),
                                   .msgType = plaintext[4],
                                   .innerFlags = plaintext[5]},
                        .body = plaintext.subspan(FSP_INNER_HEADER_SIZE)};
}

std::vector<uint8_t> encodeInnerPlaintext(const InnerHeader& header,
                                          std::span<const uint8_t> body) {
  std::vector<uint8_t> out(FSP_INNER_HEADER_SIZE + body.size());
  storeLe32(out, 0, header.timestampMs);
  out[4] = header.msgType;
  out[5] = header.innerFlags;
  std::copy(body.begin(), body.end(), out.begin() + FSP_INNER_HEADER_SIZE);
  return out;
}

FspResult<DataBody> decodeDataBody(std::span<const uint8_t> body) {
  if (body.size() < DATA_PORTS_SIZE) return FspError::SHORT;
  return DataBody{.srcPort = loadLe16(body, 0),
                  .dstPort = loadLe16(body, 2),
                  .payload = body.subspan(DATA_PORTS_SIZE)};
}

std::array<uint8_t, DATA_PORTS_SIZE> encodeDataPorts(uint16_t srcPort, uint16_t dstPort) {
  std::array<uint8_t, DATA_PORTS_SIZE> out{};
  storeLe16(out, 0, srcPort);
  storeLe16(out, 2, dstPort);
  return out;
}

FspResult<uint16_t> decodePathMtuNotification(std::span<const uint8_t> body) {
  if (body.size() < PATH_MTU_NOTIFICATION_SIZE) return FspError::SHORT;
  return loadLe16(body, 0);
}

std::array<uint8_t, PATH_MTU_NOTIFICATION_SIZE> encodePathMtuNotification(uint16_t pathMtu) {
  std::array<uint8_t, PATH_MTU_NOTIFICATION_SIZE> out{};
  storeLe16(out, 0, pathMtu);
  return out;
}

FspResult<fmp::SenderReport> decodeSessionSenderReport(std::span<const uint8_t> body) {
  if (body.size() < SESSION_SENDER_REPORT_SIZE) return FspError::SHORT;
  fmp::SenderReport r;
  r.intervalStartCounter = loadLe64(body, sr::START_COUNTER);
  r.intervalEndCounter = loadLe64(body, sr::END_COUNTER);
  r.intervalStartTimestamp = loadLe32(body, sr::START_TS);
  r.intervalEndTimestamp = loadLe32(body, sr::END_TS);
  r.intervalBytesSent = loadLe32(body, sr::BYTES_SENT);
  r.cumulativePacketsSent = loadLe64(body, sr::CUM_PACKETS);
  r.cumulativeBytesSent = loadLe64(body, sr::CUM_BYTES);
  return r;
}

FspResult<fmp::ReceiverReport> decodeSessionReceiverReport(std::span<const uint8_t> body) {
  if (body.size() < SESSION_RECEIVER_REPORT_SIZE) return FspError::SHORT;
  fmp::ReceiverReport r;
  r.highestCounter = loadLe64(body, rr::HIGHEST);
  r.cumulativePacketsRecv = loadLe64(body, rr::CUM_PACKETS);
  r.cumulativeBytesRecv = loadLe64(body, rr::CUM_BYTES);
  r.timestampEcho = loadLe32(body, rr::TS_ECHO);
  r.dwellTime = loadLe16(body, rr::DWELL);
  r.maxBurstLoss = loadLe16(body, rr::MAX_BURST);
  r.meanBurstLoss = loadLe16(body, rr::MEAN_BURST);
  r.jitter = loadLe32(body, rr::JITTER);
  r.ecnCeCount = loadLe32(body, rr::ECN_CE);
  r.owdTrend = static_cast<int32_t>(loadLe32(body, rr::OWD_TREND));
  r.burstLossCount = loadLe32(body, rr::BURST_COUNT);
  r.cumulativeReorderCount = loadLe32(body, rr::REORDER);
  r.intervalPacketsRecv = loadLe32(body, rr::INT_PACKETS);
  r.intervalBytesRecv = loadLe32(body, rr::INT_BYTES);
  return r;
}

std::array<uint8_t, SESSION_SENDER_REPORT_SIZE> encodeSessionSenderReport(
    const fmp::SenderReport& report) {
  std::array<uint8_t, SESSION_SENDER_REPORT_SIZE> out{};
  storeLe64(out, sr::START_COUNTER, report.intervalStartCounter);
  storeLe64(out, sr::END_COUNTER, report.intervalEndCounter);
  storeLe32(out, sr::START_TS, report.intervalStartTimestamp);
  storeLe32(out, sr::END_TS, report.intervalEndTimestamp);
  storeLe32(out, sr::BYTES_SENT, report.intervalBytesSent);
  storeLe64(out, sr::CUM_PACKETS, report.cumulativePacketsSent);
  storeLe64(out, sr::CUM_BYTES, report.cumulativeBytesSent);
  return out;
}

std::array<uint8_t, SESSION_RECEIVER_REPORT_SIZE> encodeSessionReceiverReport(
    const fmp::ReceiverReport& report) {
  std::array<uint8_t, SESSION_RECEIVER_REPORT_SIZE> out{};
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

}  // namespace fips::router::fsp
