// SPDX-License-Identifier: MIT
// Common prefix codec and packet classification (FIPS spec 02 §1). Runs in
// fips-router; every packet handed in is untrusted network data.
#include "router/fmp/fmp-prefix.h"

#include "router/fmp/fmp-le.h"

namespace fips::router::fmp {

namespace {

constexpr uint8_t NIBBLE = 0x0F;

FmpError sizeError(size_t got, size_t want) {
  return got < want ? FmpError::SHORT : FmpError::LONG;
}

}  // namespace

FmpResult<CommonPrefix> decodePrefix(std::span<const uint8_t> packet) {
  if (packet.size() < PREFIX_SIZE) return FmpError::SHORT;
  return CommonPrefix{
      .version = static_cast<uint8_t>(packet[0] >> 4U),
      .phase = static_cast<uint8_t>(packet[0] & NIBBLE),
      .flags = packet[1],
      .payloadLen = loadLe16(packet, 2),
  };
}

std::array<uint8_t, PREFIX_SIZE> encodePrefix(const CommonPrefix& prefix) {
  std::array<uint8_t, PREFIX_SIZE> out{};
  out[0] = static_cast<uint8_t>(((prefix.version & NIBBLE) << 4U) | (prefix.phase & NIBBLE));
  out[1] = prefix.flags;
  storeLe16(out, 2, prefix.payloadLen);
  return out;
}

std::optional<uint16_t> expectedPayloadLen(uint8_t phase, size_t totalLen) {
  switch (static_cast<FmpPhase>(phase)) {
    case FmpPhase::MSG1:
      return MSG1_PAYLOAD_LEN;
    case FmpPhase::MSG2:
      return MSG2_PAYLOAD_LEN;
    case FmpPhase::ESTABLISHED:
      if (totalLen < ESTABLISHED_MIN_SIZE || totalLen > ESTABLISHED_MAX_SIZE) return std::nullopt;
      return static_cast<uint16_t>(totalLen - ESTABLISHED_MIN_SIZE);
  }
  return std::nullopt;
}

// FIPS spec 02 §1 and §3.3 step 1; order follows the reference's rx_loop.
FmpResult<FmpPhase> classifyPacket(std::span<const uint8_t> packet) {
  const auto prefix = decodePrefix(packet);
  if (!prefix.ok()) return prefix.error();
  if (prefix->version != FMP_VERSION) return FmpError::BAD_VERSION;
  const auto phase = static_cast<FmpPhase>(prefix->phase);
  switch (phase) {
    case FmpPhase::MSG1:
    case FmpPhase::MSG2: {
      const size_t want = phase == FmpPhase::MSG1 ? MSG1_SIZE : MSG2_SIZE;
      if (prefix->payloadLen != expectedPayloadLen(prefix->phase, packet.size())) {
        return FmpError::BAD_LENGTH;
      }
      if (packet.size() != want) return sizeError(packet.size(), want);
      return phase;
    }
    case FmpPhase::ESTABLISHED:
      if (packet.size() < ESTABLISHED_MIN_SIZE) return FmpError::SHORT;
      if (packet.size() > ESTABLISHED_MAX_SIZE) return FmpError::LONG;
      if (prefix->payloadLen != expectedPayloadLen(prefix->phase, packet.size())) {
        return FmpError::BAD_LENGTH;
      }
      return phase;
  }
  return FmpError::BAD_PHASE;
}

}  // namespace fips::router::fmp
