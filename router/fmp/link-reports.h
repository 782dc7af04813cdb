// SPDX-License-Identifier: MIT
// The MMP reports: SenderReport (0x01, 48 bytes) and ReceiverReport (0x02,
// 68 bytes) on a link, FIPS spec 02 §9.1-§9.2, and the one field codec that
// also serves the FSP session reports (spec 04 §3.3: no type byte, 2 reserved
// bytes in front). Runs in fips-router; reports come from peers and are
// untrusted. All integers LE.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "router/fmp/fmp-constants.h"
#include "router/fmp/fmp-error.h"

namespace fips::router::fmp {

// Body after 0x01: reserved(3) ‖ the fields below, in order.
struct SenderReport {
  uint64_t intervalStartCounter = 0;
  uint64_t intervalEndCounter = 0;
  uint32_t intervalStartTimestamp = 0;  // session ms
  uint32_t intervalEndTimestamp = 0;
  uint32_t intervalBytesSent = 0;
  uint64_t cumulativePacketsSent = 0;
  uint64_t cumulativeBytesSent = 0;

  bool operator==(const SenderReport&) const = default;
};

// Body after 0x02: reserved(3) ‖ fields in order, with 2 reserved bytes
// between meanBurstLoss and jitter.
struct ReceiverReport {
  uint64_t highestCounter = 0;
  uint64_t cumulativePacketsRecv = 0;
  uint64_t cumulativeBytesRecv = 0;
  uint32_t timestampEcho = 0;  // inner-header timestamp of the latest frame; 0 = none
  uint16_t dwellTime = 0;      // ms since that frame arrived
  uint16_t maxBurstLoss = 0;
  uint16_t meanBurstLoss = 0;  // u8.8 fixed point
  uint32_t jitter = 0;         // µs
  uint32_t ecnCeCount = 0;
  int32_t owdTrend = 0;
  uint32_t burstLossCount = 0;
  uint32_t cumulativeReorderCount = 0;
  uint32_t intervalPacketsRecv = 0;
  uint32_t intervalBytesRecv = 0;

  bool operator==(const ReceiverReport&) const = default;
};

// Bytes of the report fields alone, without type byte or reserved lead-in.
constexpr size_t SENDER_REPORT_FIELDS_SIZE = 44;
constexpr size_t RECEIVER_REPORT_FIELDS_SIZE = 64;

// Reserved bytes in front of the fields: 3 after a link message's type byte
// (spec 02 §9), 2 at the start of a session report body (spec 04 §3.3).
constexpr size_t LINK_REPORT_RESERVED = 3;
constexpr size_t SESSION_REPORT_RESERVED = 2;

// Decodes the fields after `reserved` leading bytes of body; nullopt if body
// is shorter than reserved + SENDER_REPORT_FIELDS_SIZE. Reserved and trailing
// bytes are ignored (reference behaviour).
std::optional<SenderReport> decodeSenderReportFields(std::span<const uint8_t> body,
                                                     size_t reserved);

// As above for reserved + RECEIVER_REPORT_FIELDS_SIZE bytes; the 2 reserved
// bytes inside the fields (before jitter) are ignored too.
std::optional<ReceiverReport> decodeReceiverReportFields(std::span<const uint8_t> body,
                                                         size_t reserved);

// Writes the fields at offset `reserved` of out, which holds at least
// reserved + SENDER_REPORT_FIELDS_SIZE bytes; other bytes are left as they are.
void encodeSenderReportFields(std::span<uint8_t> out, size_t reserved, const SenderReport& report);

// As above for reserved + RECEIVER_REPORT_FIELDS_SIZE bytes.
void encodeReceiverReportFields(std::span<uint8_t> out, size_t reserved,
                                const ReceiverReport& report);

// Decodes the body after 0x01. SHORT if fewer than 47 bytes; reserved and
// trailing bytes are ignored (reference behaviour).
FmpResult<SenderReport> decodeSenderReport(std::span<const uint8_t> body);

// Decodes the body after 0x02. SHORT if fewer than 67 bytes; reserved and
// trailing bytes are ignored.
FmpResult<ReceiverReport> decodeReceiverReport(std::span<const uint8_t> body);

// The whole 48-byte message, reserved bytes zero.
std::array<uint8_t, SENDER_REPORT_SIZE> encodeSenderReport(const SenderReport& report);

// The whole 68-byte message, reserved bytes zero.
std::array<uint8_t, RECEIVER_REPORT_SIZE> encodeReceiverReport(const ReceiverReport& report);

}  // namespace fips::router::fmp
