// SPDX-License-Identifier: MIT
// libFuzzer target: a TreeAnnounce body (after the 0x10 type byte) through the
// decoder and the semantic checks (spec 03 §2, §2.1). When decoding succeeds,
// encoding the result must give back the input up to the signature (trailing
// bytes are ignored by design). Fuzzing only; input is hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "router/stp/tree-announce.h"

using namespace fips::router::stp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> body(data, size);
  const auto decoded = decodeTreeAnnounce(body);
  if (!std::holds_alternative<TreeAnnounce>(decoded)) return 0;
  const auto& announce = std::get<TreeAnnounce>(decoded);
  if (announce.ancestry.empty()) __builtin_trap();
  const auto again = encodeTreeAnnounce(announce);
  if (again.size() > body.size() || !std::equal(again.begin(), again.end(), body.begin())) {
    __builtin_trap();
  }
  const auto redecoded = decodeTreeAnnounce(again);
  if (!std::holds_alternative<TreeAnnounce>(redecoded) ||
      !(std::get<TreeAnnounce>(redecoded) == announce)) {
    __builtin_trap();
  }
  (void)validateSemantics(announce);
  const auto coords = toCoordinates(announce.ancestry);
  if (coords.path().size() != announce.ancestry.size()) __builtin_trap();
  return 0;
}
