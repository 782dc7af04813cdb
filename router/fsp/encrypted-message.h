// SPDX-License-Identifier: MIT
// The FSP encrypted message (phase 0, U = 0), FIPS spec 04 §3: the 12-byte
// header that is the AEAD AAD, optional cleartext coordinates (CP), then
// ciphertext ‖ tag. Runs in fips-router; messages come from remote nodes and
// are untrusted (the coordinates are not authenticated either).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "router/fsp/fsp-prefix.h"

namespace fips::router::fsp {

using FspHeaderBytes = std::array<uint8_t, FSP_HEADER_SIZE>;

// A parsed encrypted message; spans borrow from the decoded buffer.
struct EncryptedMessage {
  uint8_t flags = 0;                                 // CP | K (reserved bits 3-7 kept as received)
  uint16_t payloadLen = 0;                           // inner plaintext length
  uint64_t counter = 0;                              // AEAD nonce counter, u64 LE on the wire
  std::span<const uint8_t, FSP_HEADER_SIZE> header;  // the AAD, exactly these 12 bytes
  // CP coordinates; either is empty when absent or sent with count 0.
  Coordinates srcCoords;
  Coordinates destCoords;
  std::span<const uint8_t> ciphertext;  // payload_len + 16 bytes (tag included)

  bool coordsPresent() const { return (flags & FLAG_CP) != 0; }
  bool keyEpoch() const { return (flags & FLAG_K) != 0; }
};

// Decodes a whole encrypted FSP message. SHORT below 28 bytes or when CP
// coordinates do not fit; BAD_VERSION; BAD_PHASE unless phase 0; BAD_FLAGS if
// U is set (a routing signal, not for this decoder); BAD_LENGTH unless the
// bytes after the header and coordinates are exactly payload_len + 16.
FspResult<EncryptedMessage> decodeEncryptedMessage(std::span<const uint8_t> message);

// The 12-byte header: 0x00 ‖ flags ‖ payload_len u16 LE ‖ counter u64 LE.
// Sealing writes the counter again (SendCipher::sealFrame, offset 4).
FspHeaderBytes encodeFspHeader(uint8_t flags, uint16_t payloadLen, uint64_t counter);

}  // namespace fips::router::fsp
