// SPDX-License-Identifier: MIT
// The 4-byte common prefix of every FMP packet and the receive-path check
// that classifies a packet by phase (FIPS spec 02 §1, spec 00 pitfall 9).
// Runs in fips-router; packets come from transport workers and are untrusted.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "router/fmp/fmp-constants.h"
#include "router/fmp/fmp-error.h"

namespace fips::router::fmp {

// The prefix fields as they are on the wire, unvalidated.
struct CommonPrefix {
  uint8_t version = 0;      // high nibble of byte 0
  uint8_t phase = 0;        // low nibble of byte 0
  uint8_t flags = 0;        // byte 1
  uint16_t payloadLen = 0;  // bytes 2..3, u16 LE

  bool operator==(const CommonPrefix&) const = default;
};

// Reads the first 4 bytes without judging them. SHORT if fewer than 4 bytes.
FmpResult<CommonPrefix> decodePrefix(std::span<const uint8_t> packet);

// The 4 prefix bytes; version and phase are masked to their nibbles.
std::array<uint8_t, PREFIX_SIZE> encodePrefix(const CommonPrefix& prefix);

// The payload_len a packet of this phase and total length must carry:
// 110 for msg1, 65 for msg2, total - 32 for an established frame (inner
// plaintext only, header and tag excluded). nullopt when no value fits: an
// unknown phase, or an established frame shorter than 32 or longer than
// 32 + 65535 bytes (as the reference's expected_payload_len).
std::optional<uint16_t> expectedPayloadLen(uint8_t phase, size_t totalLen);

// The receive-path gate every packet passes before dispatch, in the
// reference's order: SHORT (< 4 bytes), BAD_VERSION, BAD_PHASE, then per
// phase: handshakes BAD_LENGTH (payload_len != 110 / 65) before SHORT/LONG
// (total != 114 / 69); established SHORT (< 32) or LONG (> 32 + 65535)
// before BAD_LENGTH (payload_len != total - 32). Flags are not judged here.
FmpResult<FmpPhase> classifyPacket(std::span<const uint8_t> packet);

}  // namespace fips::router::fmp
