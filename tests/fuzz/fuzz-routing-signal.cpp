// SPDX-License-Identifier: MIT
// libFuzzer target: the routing error signal decoder (spec 04 §6). Input is
// the FSP message after its 4-byte prefix. A decoded signal must re-encode
// (with its prefix) to bytes that decode to the same signal and whose fields
// match the input except the ignored flags byte. Fuzzing only; input is
// hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "router/routing/routing-signal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fips::router::routing;
  const std::span<const uint8_t> input(data, size);
  const auto decoded = decodeRoutingSignal(input);
  if (!decoded.ok()) return 0;
  const auto again = encodeRoutingSignal(decoded.value());
  const auto body = std::span(again).subspan(FSP_PREFIX_SIZE);
  if (body.size() > input.size() || body[0] != input[0]) __builtin_trap();
  if (!std::equal(body.begin() + 2, body.end(), input.begin() + 2)) __builtin_trap();
  const auto reparsed = decodeRoutingSignal(body);
  if (!reparsed.ok() || !(reparsed.value() == decoded.value())) __builtin_trap();
  return 0;
}
