// SPDX-License-Identifier: MIT
// The link-layer MMP reports: SenderReport (0x01, 48 bytes) and
// ReceiverReport (0x02, 68 bytes), FIPS spec 02 §9.1-§9.2. Runs in
// fips-router; reports come from peers and are untrusted. All integers LE.
#pragma once

#include <array>
#include <cstdint>
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
