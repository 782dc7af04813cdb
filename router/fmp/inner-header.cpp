// SPDX-License-Identifier: MIT
// Codec for the FMP inner plaintext header (FIPS spec 02 §3.2). Runs in
// fips-router; plaintexts come from peers and are untrusted.
#include "router/fmp/inner-header.h"

#include <algorithm>

#include "router/fmp/fmp-le.h"

namespace fips::router::fmp {

FmpResult<InnerPlaintext> decodeInnerPlaintext(std::span<const uint8_t> plaintext) {
  if (plaintext.size() < INNER_HEADER_SIZE) return FmpError::SHORT;
  return InnerPlaintext{
      .timestampMs = loadLe32(plaintext, 0),
      .msgType = plaintext[TIMESTAMP_SIZE],
      .message = plaintext.subspan(TIMESTAMP_SIZE),
  };
}

std::vector<uint8_t> encodeInnerPlaintext(uint32_t timestampMs, std::span<const uint8_t> message) {
  std::vector<uint8_t> out(TIMESTAMP_SIZE + message.size());
  storeLe32(out, 0, timestampMs);
  std::copy(message.begin(), message.end(), out.data() + TIMESTAMP_SIZE);
  return out;
}

}  // namespace fips::router::fmp
