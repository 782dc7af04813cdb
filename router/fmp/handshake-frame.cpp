// SPDX-License-Identifier: MIT
// Codec for the FMP IK handshake frames (FIPS spec 02 §2). Runs in
// fips-router; decoded packets are untrusted network data.
#include "router/fmp/handshake-frame.h"

#include <algorithm>
#include <optional>

#include "router/fmp/fmp-le.h"
#include "router/fmp/fmp-prefix.h"

namespace fips::router::fmp {

namespace {

// The checks shared by msg1 and msg2 (spec 02 §2: "Parsers require the exact
// total length, version 0, correct phase and flags == 0"), after the
// receive-path gate of spec 02 §1. nullopt when the packet passes.
std::optional<FmpError> checkHandshake(std::span<const uint8_t> packet, FmpPhase want) {
  const auto prefix = decodePrefix(packet);
  if (!prefix.ok()) return prefix.error();
  if (prefix->version != FMP_VERSION) return FmpError::BAD_VERSION;
  if (static_cast<FmpPhase>(prefix->phase) != want) return FmpError::BAD_PHASE;
  const auto phase = classifyPacket(packet);
  if (!phase.ok()) return phase.error();
  if (prefix->flags != 0) return FmpError::BAD_FLAGS;
  return std::nullopt;
}

}  // namespace

FmpResult<Msg1Frame> decodeMsg1(std::span<const uint8_t> packet) {
  if (const auto e = checkHandshake(packet, FmpPhase::MSG1)) return *e;
  return Msg1Frame{
      .senderIdx = loadLe32(packet, PREFIX_SIZE),
      .noiseMsg = packet.subspan(MSG1_NOISE_OFFSET).first<NOISE_MSG1_SIZE>(),
  };
}

FmpResult<Msg2Frame> decodeMsg2(std::span<const uint8_t> packet) {
  if (const auto e = checkHandshake(packet, FmpPhase::MSG2)) return *e;
  return Msg2Frame{
      .senderIdx = loadLe32(packet, PREFIX_SIZE),
      .receiverIdx = loadLe32(packet, PREFIX_SIZE + INDEX_SIZE),
      .noiseMsg = packet.subspan(MSG2_NOISE_OFFSET).first<NOISE_MSG2_SIZE>(),
  };
}

std::array<uint8_t, MSG1_SIZE> encodeMsg1(uint32_t senderIdx,
                                          std::span<const uint8_t, NOISE_MSG1_SIZE> noiseMsg) {
  std::array<uint8_t, MSG1_SIZE> out{};
  const auto prefix = encodePrefix({.version = FMP_VERSION,
                                    .phase = static_cast<uint8_t>(FmpPhase::MSG1),
                                    .flags = 0,
                                    .payloadLen = MSG1_PAYLOAD_LEN});
  std::copy(prefix.begin(), prefix.end(), out.begin());
  storeLe32(out, PREFIX_SIZE, senderIdx);
  std::copy(noiseMsg.begin(), noiseMsg.end(), out.begin() + MSG1_NOISE_OFFSET);
  return out;
}

std::array<uint8_t, MSG2_SIZE> encodeMsg2(uint32_t senderIdx, uint32_t receiverIdx,
                                          std::span<const uint8_t, NOISE_MSG2_SIZE> noiseMsg) {
  std::array<uint8_t, MSG2_SIZE> out{};
  const auto prefix = encodePrefix({.version = FMP_VERSION,
                                    .phase = static_cast<uint8_t>(FmpPhase::MSG2),
                                    .flags = 0,
                                    .payloadLen = MSG2_PAYLOAD_LEN});
  std::copy(prefix.begin(), prefix.end(), out.begin());
  storeLe32(out, PREFIX_SIZE, senderIdx);
  storeLe32(out, PREFIX_SIZE + INDEX_SIZE, receiverIdx);
  std::copy(noiseMsg.begin(), noiseMsg.end(), out.begin() + MSG2_NOISE_OFFSET);
  return out;
}

}  // namespace fips::router::fmp
