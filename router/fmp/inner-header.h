// SPDX-License-Identifier: MIT
// The FMP inner plaintext header, the first 5 decrypted bytes of every
// established frame: timestamp u32 LE ‖ msg_type (FIPS spec 02 §3.2). Runs in
// fips-router; the plaintext is authenticated but still the peer's choice,
// so it is treated as untrusted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "router/fmp/fmp-constants.h"
#include "router/fmp/fmp-error.h"

namespace fips::router::fmp {

// A decoded inner plaintext; message borrows from the plaintext.
struct InnerPlaintext {
  uint32_t timestampMs;              // ms since the sender's session start (wraps)
  uint8_t msgType;                   // raw: unknown types still carry a timestamp for MMP
  std::span<const uint8_t> message;  // from the msg_type byte to the end (>= 1 byte)
};

// Splits a decrypted plaintext. SHORT if fewer than 5 bytes. The msg_type is
// not judged here (the reference records MMP state for every authentic
// frame before dispatch drops unknown types); decodeLinkMessage does that.
FmpResult<InnerPlaintext> decodeInnerPlaintext(std::span<const uint8_t> plaintext);

// timestamp u32 LE ‖ message, where message starts with its msg_type byte
// (as every link-message encoder returns it).
std::vector<uint8_t> encodeInnerPlaintext(uint32_t timestampMs, std::span<const uint8_t> message);

}  // namespace fips::router::fmp
