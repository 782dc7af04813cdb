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
using fmp::storeLe16;
using fmp::storeLe32;

static_assert(fmp::SESSION_REPORT_RESERVED + fmp::SENDER_REPORT_FIELDS_SIZE ==
              SESSION_SENDER_REPORT_SIZE);
static_assert(fmp::SESSION_REPORT_RESERVED + fmp::RECEIVER_REPORT_FIELDS_SIZE ==
              SESSION_RECEIVER_REPORT_SIZE);

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
  const auto r = fmp::decodeSenderReportFields(body, fmp::SESSION_REPORT_RESERVED);
  if (!r) return FspError::SHORT;
  return *r;
}

FspResult<fmp::ReceiverReport> decodeSessionReceiverReport(std::span<const uint8_t> body) {
  const auto r = fmp::decodeReceiverReportFields(body, fmp::SESSION_REPORT_RESERVED);
  if (!r) return FspError::SHORT;
  return *r;
}

std::array<uint8_t, SESSION_SENDER_REPORT_SIZE> encodeSessionSenderReport(
    const fmp::SenderReport& report) {
  std::array<uint8_t, SESSION_SENDER_REPORT_SIZE> out{};
  fmp::encodeSenderReportFields(out, fmp::SESSION_REPORT_RESERVED, report);
  return out;
}

std::array<uint8_t, SESSION_RECEIVER_REPORT_SIZE> encodeSessionReceiverReport(
    const fmp::ReceiverReport& report) {
  std::array<uint8_t, SESSION_RECEIVER_REPORT_SIZE> out{};
  fmp::encodeReceiverReportFields(out, fmp::SESSION_REPORT_RESERVED, report);
  return out;
}

}  // namespace fips::router::fsp
