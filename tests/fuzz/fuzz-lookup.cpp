// SPDX-License-Identifier: MIT
// libFuzzer target: the LookupRequest / LookupResponse decoders (spec 03
// §5.1, §5.2). The first input byte picks the message (even: request, odd:
// response), the rest is the body after the type byte. A decoded message must
// re-encode to a prefix of the input (trailing bytes are ignored on decode)
// and decode again to the same value. Fuzzing only; input is hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "router/lookup/lookup-messages.h"

namespace {

template <typename Msg, typename Decode, typename Encode>
void roundTrip(std::span<const uint8_t> body, Decode decode, Encode encode) {
  const auto decoded = decode(body);
  if (!decoded.ok()) return;
  const auto again = encode(decoded.value());
  const auto againBody = std::span(again).subspan(1);
  if (againBody.size() > body.size() ||
      !std::equal(againBody.begin(), againBody.end(), body.begin())) {
    __builtin_trap();
  }
  const auto reparsed = decode(againBody);
  if (!reparsed.ok() || !(reparsed.value() == decoded.value())) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fips::router::lookup;
  if (size == 0) return 0;
  const std::span<const uint8_t> body(data + 1, size - 1);
  if ((data[0] & 1U) == 0) {
    roundTrip<LookupRequest>(body, decodeLookupRequest, encodeLookupRequest);
  } else {
    roundTrip<LookupResponse>(body, decodeLookupResponse, encodeLookupResponse);
  }
  return 0;
}
