// SPDX-License-Identifier: MIT
// libFuzzer target: a FilterAnnounce body (after the 0x20 type byte) through
// the decoder (spec 03 §4.3). The length is exact, so when decoding succeeds
// encoding the result must give back the input byte for byte; the filter
// statistics must be total. Fuzzing only; input is hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "router/bloom/filter-announce.h"

using namespace fips::router::bloom;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> body(data, size);
  const auto decoded = decodeFilterAnnounce(body);
  if (!std::holds_alternative<FilterAnnounce>(decoded)) return 0;
  const auto& announce = std::get<FilterAnnounce>(decoded);
  const auto again = encodeFilterAnnounce(announce);
  if (!std::equal(again.begin(), again.end(), body.begin(), body.end())) __builtin_trap();
  const double fpr = announce.filter.fpr();
  if (!(fpr >= 0.0 && fpr <= 1.0)) __builtin_trap();
  (void)announce.filter.estimatedCount(std::numeric_limits<double>::infinity());
  (void)announce.filter.contains(NodeAddr());
  return 0;
}
