// SPDX-License-Identifier: MIT
// libFuzzer target: the FMP IK msg1/msg2 frame decoders (spec 02 §2). Checks
// that they agree with the receive-path gate and that a decoded frame
// re-encodes to the same bytes. Fuzzing only; input is hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "router/fmp/fmp-prefix.h"
#include "router/fmp/handshake-frame.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fips::router::fmp;
  const std::span<const uint8_t> packet(data, size);
  const auto phase = classifyPacket(packet);
  const auto msg1 = decodeMsg1(packet);
  const auto msg2 = decodeMsg2(packet);
  if (msg1.ok() && msg2.ok()) __builtin_trap();
  if (msg1.ok()) {
    if (!phase.ok() || phase.value() != FmpPhase::MSG1) __builtin_trap();
    const auto again = encodeMsg1(msg1->senderIdx, msg1->noiseMsg);
    if (!std::equal(again.begin(), again.end(), packet.begin(), packet.end())) __builtin_trap();
  }
  if (msg2.ok()) {
    if (!phase.ok() || phase.value() != FmpPhase::MSG2) __builtin_trap();
    const auto again = encodeMsg2(msg2->senderIdx, msg2->receiverIdx, msg2->noiseMsg);
    if (!std::equal(again.begin(), again.end(), packet.begin(), packet.end())) __builtin_trap();
  }
  return 0;
}
