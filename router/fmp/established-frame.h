// SPDX-License-Identifier: MIT
// FMP established frame (phase 0): the 16-byte cleartext outer header, which
// is also the AEAD associated data, followed by ciphertext ‖ 16-byte tag
// (FIPS spec 02 §3.1). Runs in fips-router; frames come from transport workers
// and are untrusted. No AEAD here: router/noise opens and seals the spans.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "router/fmp/fmp-constants.h"
#include "router/fmp/fmp-error.h"

namespace fips::router::fmp {

// Outer header fields: 00 ‖ flags ‖ payload_len u16 LE ‖ receiver_idx u32 LE ‖
// counter u64 LE. payload_len counts the inner plaintext only (no header, no tag).
struct EstablishedHeader {
  uint8_t flags = 0;         // FLAG_KEY_EPOCH | FLAG_CE | FLAG_SP; reserved bits passed through
  uint16_t payloadLen = 0;   // inner plaintext bytes
  uint32_t receiverIdx = 0;  // the index the receiver allocated (its our_index)
  uint64_t counter = 0;      // send counter = AEAD nonce (0^4 ‖ counter LE)

  bool keyEpoch() const { return (flags & FLAG_KEY_EPOCH) != 0; }
  bool congestionExperienced() const { return (flags & FLAG_CE) != 0; }
  bool spin() const { return (flags & FLAG_SP) != 0; }
  bool operator==(const EstablishedHeader&) const = default;
};

// A decoded frame; the spans borrow from the packet.
struct EstablishedFrame {
  EstablishedHeader header;
  std::span<const uint8_t, ESTABLISHED_HEADER_SIZE> aad;  // bytes 0..15 exactly as received
  std::span<const uint8_t> sealed;  // ciphertext ‖ tag: payloadLen + 16 bytes
};

// Decodes a whole phase-0 packet. Errors, first that applies: SHORT (< 4),
// BAD_VERSION, BAD_PHASE (phase != 0), SHORT (< 32), LONG (> 32 + 65535),
// BAD_LENGTH (payload_len != total - 32). Reserved flag bits are not judged
// (the reference ignores them).
FmpResult<EstablishedFrame> decodeEstablished(std::span<const uint8_t> packet);

// A header for a plaintext of plaintextLen bytes. LONG if it exceeds 65535
// (payload_len cannot express it).
FmpResult<EstablishedHeader> makeEstablishedHeader(uint32_t receiverIdx, uint64_t counter,
                                                   uint8_t flags, size_t plaintextLen);

// The 16 header bytes: the AAD to seal with and the first 16 bytes of the frame.
std::array<uint8_t, ESTABLISHED_HEADER_SIZE> encodeEstablishedHeader(
    const EstablishedHeader& header);

// header ‖ sealed. BAD_LENGTH unless sealed is payloadLen + 16 bytes.
FmpResult<std::vector<uint8_t>> encodeEstablished(const EstablishedHeader& header,
                                                  std::span<const uint8_t> sealed);

}  // namespace fips::router::fmp
