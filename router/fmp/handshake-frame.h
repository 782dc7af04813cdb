// SPDX-License-Identifier: MIT
// FMP Noise IK handshake frames: msg1 (phase 1, exactly 114 bytes) and msg2
// (phase 2, exactly 69 bytes), FIPS spec 02 §2. Runs in fips-router; frames
// come from transport workers and are untrusted. The Noise bytes are only
// sliced out here; router/noise processes them.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "router/fmp/fmp-constants.h"
#include "router/fmp/fmp-error.h"

namespace fips::router::fmp {

// msg1: 01 ‖ 00 ‖ payload_len 110 (LE) ‖ sender_idx u32 LE ‖ Noise IK msg1 (106).
struct Msg1Frame {
  uint32_t senderIdx;                                  // the initiator's chosen index
  std::span<const uint8_t, NOISE_MSG1_SIZE> noiseMsg;  // borrowed from the packet
};

// msg2: 02 ‖ 00 ‖ payload_len 65 (LE) ‖ sender_idx u32 LE ‖ receiver_idx u32 LE ‖
// Noise IK msg2 (57).
struct Msg2Frame {
  uint32_t senderIdx;                                  // the responder's chosen index
  uint32_t receiverIdx;                                // echo of the initiator's msg1 sender_idx
  std::span<const uint8_t, NOISE_MSG2_SIZE> noiseMsg;  // borrowed from the packet
};

// Decodes a whole msg1 packet. Errors, first that applies: SHORT (< 4 bytes),
// BAD_VERSION, BAD_PHASE (phase != 1), BAD_LENGTH (payload_len != 110),
// SHORT/LONG (total != 114), BAD_FLAGS (flags != 0).
FmpResult<Msg1Frame> decodeMsg1(std::span<const uint8_t> packet);

// Decodes a whole msg2 packet; as decodeMsg1 with phase 2, payload_len 65, total 69.
FmpResult<Msg2Frame> decodeMsg2(std::span<const uint8_t> packet);

// The 114-byte msg1 packet.
std::array<uint8_t, MSG1_SIZE> encodeMsg1(uint32_t senderIdx,
                                          std::span<const uint8_t, NOISE_MSG1_SIZE> noiseMsg);

// The 69-byte msg2 packet.
std::array<uint8_t, MSG2_SIZE> encodeMsg2(uint32_t senderIdx, uint32_t receiverIdx,
                                          std::span<const uint8_t, NOISE_MSG2_SIZE> noiseMsg);

}  // namespace fips::router::fmp
