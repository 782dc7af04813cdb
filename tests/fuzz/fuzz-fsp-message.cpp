// SPDX-License-Identifier: MIT
// libFuzzer target: an FSP message as carried in a SessionDatagram payload,
// through the prefix and the phase's decoder: SessionSetup, SessionAck,
// SessionMsg3 or the encrypted header with CP coordinates (FIPS spec 04
// §1-§3). Checks decode → encode → same bytes for the handshake messages and
// the header. Fuzzing only; input is hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "router/fsp/encrypted-message.h"
#include "router/fsp/handshake-messages.h"

namespace {

using namespace fips::router::fsp;

template <typename A, typename B>
void requireSame(const A& a, const B& b) {
  if (!std::equal(a.begin(), a.end(), b.begin(), b.end())) __builtin_trap();
}

void checkEncrypted(std::span<const uint8_t> message) {
  const auto m = decodeEncryptedMessage(message);
  if (!m.ok()) return;
  requireSame(encodeFspHeader(m->flags, m->payloadLen, m->counter), m->header);
  const size_t coords =
      m->coordsPresent() ? coordFieldSize(m->srcCoords) + coordFieldSize(m->destCoords) : 0;
  if (FSP_HEADER_SIZE + coords + m->ciphertext.size() != message.size()) __builtin_trap();
  if (m->ciphertext.size() != m->payloadLen + FSP_TAG_SIZE) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> message(data, size);
  const auto prefix = decodeFspPrefix(message);
  if (!prefix.ok()) return 0;
  switch (prefix->phase) {
    case FspPhase::SETUP: {
      const auto m = decodeSessionSetup(message);
      if (m.ok()) requireSame(encodeSessionSetup(m.value()), message);
      break;
    }
    case FspPhase::ACK: {
      const auto m = decodeSessionAck(message);
      if (m.ok()) requireSame(encodeSessionAck(m.value()), message);
      break;
    }
    case FspPhase::MSG3: {
      const auto m = decodeSessionMsg3(message);
      if (m.ok()) requireSame(encodeSessionMsg3(m.value()), message);
      break;
    }
    case FspPhase::ESTABLISHED:
      checkEncrypted(message);
      break;
  }
  return 0;
}
