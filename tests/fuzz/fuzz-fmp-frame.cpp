// SPDX-License-Identifier: MIT
// libFuzzer target: the FMP receive-path gate and the established frame
// decoder (spec 02 §1, §3.1). Checks that the gate and the decoder agree and
// that a decoded frame re-encodes to the same bytes. Fuzzing only; input is
// hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "router/fmp/established-frame.h"
#include "router/fmp/fmp-prefix.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fips::router::fmp;
  const std::span<const uint8_t> packet(data, size);
  const auto phase = classifyPacket(packet);
  const auto frame = decodeEstablished(packet);
  const bool gateSaysEstablished = phase.ok() && phase.value() == FmpPhase::ESTABLISHED;
  if (frame.ok() != gateSaysEstablished) __builtin_trap();
  if (!frame.ok()) return 0;

  const auto& f = frame.value();
  if (f.sealed.size() != size_t{f.header.payloadLen} + AEAD_TAG_SIZE) __builtin_trap();
  const auto again = encodeEstablished(f.header, f.sealed);
  if (!again.ok() || !std::equal(again->begin(), again->end(), packet.begin(), packet.end())) {
    __builtin_trap();
  }
  const auto aad = encodeEstablishedHeader(f.header);
  if (!std::equal(aad.begin(), aad.end(), f.aad.begin(), f.aad.end())) __builtin_trap();
  return 0;
}
