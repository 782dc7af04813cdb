// SPDX-License-Identifier: MIT
// Anti-replay window (see replay-window.h). Runs in fips-router.
#include "router/noise/replay-window.h"

namespace fips::router::noise {

ReplayVerdict ReplayWindow::check(uint64_t counter) const {
  if (counter > highest_) return ReplayVerdict::FRESH;
  const uint64_t d = highest_ - counter;
  if (d >= SIZE) return ReplayVerdict::TOO_OLD;
  const bool seen = ((bitmap_[d / 64] >> (d % 64)) & 1U) != 0;
  return seen ? ReplayVerdict::DUPLICATE : ReplayVerdict::FRESH;
}

void ReplayWindow::accept(uint64_t counter) {
  if (counter > highest_) {
    shift(counter - highest_);
    highest_ = counter;
    bitmap_[0] |= 1U;
    return;
  }
  const uint64_t d = highest_ - counter;
  if (d < SIZE) bitmap_[d / 64] |= uint64_t{1} << (d % 64);
}

// Moves every bit up by `by` positions (bit d becomes bit d + by).
void ReplayWindow::shift(uint64_t by) {
  if (by >= SIZE) {
    bitmap_.fill(0);
    return;
  }
  const size_t words = static_cast<size_t>(by / 64);
  const unsigned bits = static_cast<unsigned>(by % 64);
  for (size_t i = bitmap_.size(); i-- > 0;) {
    uint64_t value = 0;
    if (i >= words) {
      value = bitmap_[i - words] << bits;
      if (bits != 0 && i >= words + 1) value |= bitmap_[i - words - 1] >> (64 - bits);
    }
    bitmap_[i] = value;
  }
}

}  // namespace fips::router::noise
