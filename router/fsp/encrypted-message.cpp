// SPDX-License-Identifier: MIT
// FSP encrypted message header and CP coordinates (FIPS spec 04 §3). Runs in
// fips-router on untrusted input; every read is bounds-checked first.
#include "router/fsp/encrypted-message.h"

#include "router/fmp/fmp-le.h"

namespace fips::router::fsp {

FspResult<EncryptedMessage> decodeEncryptedMessage(std::span<const uint8_t> message) {
  if (message.size() < FSP_ENCRYPTED_MIN_SIZE) return FspError::SHORT;
  const auto prefix = decodeFspPrefix(message);
  if (!prefix.ok()) return prefix.error();
  if (prefix->phase != FspPhase::ESTABLISHED) return FspError::BAD_PHASE;
  if (prefix->unencrypted()) return FspError::BAD_FLAGS;
  EncryptedMessage msg{.flags = prefix->flags,
                       .payloadLen = prefix->payloadLen,
                       .counter = fmp::loadLe64(message, FSP_COUNTER_OFFSET),
                       .header = message.first<FSP_HEADER_SIZE>(),
                       .srcCoords = {},
                       .destCoords = {},
                       .ciphertext = {}};
  auto rest = message.subspan(FSP_HEADER_SIZE);
  if (msg.coordsPresent()) {
    // FIPS spec 04 §3: either field may have count 0, decoded as absent.
    auto src = decodeCoordField(rest, false);
    if (!src.ok()) return src.error();
    rest = rest.subspan(src->consumed);
    auto dest = decodeCoordField(rest, false);
    if (!dest.ok()) return dest.error();
    rest = rest.subspan(dest->consumed);
    msg.srcCoords = src->coords;
    msg.destCoords = dest->coords;
  }
  if (rest.size() != size_t{msg.payloadLen} + FSP_TAG_SIZE) {
    return rest.size() < FSP_TAG_SIZE ? FspError::SHORT : FspError::BAD_LENGTH;
  }
  msg.ciphertext = rest;
  return msg;
}

FspHeaderBytes encodeFspHeader(uint8_t flags, uint16_t payloadLen, uint64_t counter) {
  FspHeaderBytes out{};
  const auto prefix =
      encodeFspPrefix({.phase = FspPhase::ESTABLISHED, .flags = flags, .payloadLen = payloadLen});
  std::copy(prefix.begin(), prefix.end(), out.begin());
  fmp::storeLe64(out, FSP_COUNTER_OFFSET, counter);
  return out;
}

}  // namespace fips::router::fsp
