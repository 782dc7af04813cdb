// SPDX-License-Identifier: MIT
// Codec for the FMP established frame outer header (FIPS spec 02 §3.1). Runs
// in fips-router; decoded packets are untrusted network data.
#include "router/fmp/established-frame.h"

#include "router/fmp/fmp-le.h"
#include "router/fmp/fmp-prefix.h"

namespace fips::router::fmp {

FmpResult<EstablishedFrame> decodeEstablished(std::span<const uint8_t> packet) {
  const auto prefix = decodePrefix(packet);
  if (!prefix.ok()) return prefix.error();
  if (prefix->version != FMP_VERSION) return FmpError::BAD_VERSION;
  if (static_cast<FmpPhase>(prefix->phase) != FmpPhase::ESTABLISHED) return FmpError::BAD_PHASE;
  const auto phase = classifyPacket(packet);
  if (!phase.ok()) return phase.error();
  return EstablishedFrame{
      .header = {.flags = prefix->flags,
                 .payloadLen = prefix->payloadLen,
                 .receiverIdx = loadLe32(packet, RECEIVER_IDX_OFFSET),
                 .counter = loadLe64(packet, COUNTER_OFFSET)},
      .aad = packet.first<ESTABLISHED_HEADER_SIZE>(),
      .sealed = packet.subspan(ESTABLISHED_HEADER_SIZE),
  };
}

FmpResult<EstablishedHeader> makeEstablishedHeader(uint32_t receiverIdx, uint64_t counter,
                                                   uint8_t flags, size_t plaintextLen) {
  if (plaintextLen > UINT16_MAX) return FmpError::LONG;
  return EstablishedHeader{.flags = flags,
                           .payloadLen = static_cast<uint16_t>(plaintextLen),
                           .receiverIdx = receiverIdx,
                           .counter = counter};
}

std::array<uint8_t, ESTABLISHED_HEADER_SIZE> encodeEstablishedHeader(
    const EstablishedHeader& header) {
  std::array<uint8_t, ESTABLISHED_HEADER_SIZE> out{};
  out[0] = static_cast<uint8_t>((FMP_VERSION << 4U) | static_cast<uint8_t>(FmpPhase::ESTABLISHED));
  out[1] = header.flags;
  storeLe16(out, 2, header.payloadLen);
  storeLe32(out, RECEIVER_IDX_OFFSET, header.receiverIdx);
  storeLe64(out, COUNTER_OFFSET, header.counter);
  return out;
}

FmpResult<std::vector<uint8_t>> encodeEstablished(const EstablishedHeader& header,
                                                  std::span<const uint8_t> sealed) {
  if (sealed.size() != size_t{header.payloadLen} + AEAD_TAG_SIZE) return FmpError::BAD_LENGTH;
  const auto head = encodeEstablishedHeader(header);
  std::vector<uint8_t> out;
  out.reserve(head.size() + sealed.size());
  out.insert(out.end(), head.begin(), head.end());
  out.insert(out.end(), sealed.begin(), sealed.end());
  return out;
}

}  // namespace fips::router::fmp
