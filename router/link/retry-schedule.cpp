// SPDX-License-Identifier: MIT
// Reconnect backoff (see retry-schedule.h). Runs in fips-router.
#include "router/link/retry-schedule.h"

#include <algorithm>

namespace fips::router::link {

uint64_t retryBackoffMs(uint32_t count, uint64_t baseMs, uint64_t capMs) {
  if (count >= 63 || baseMs > (capMs >> std::min<uint32_t>(count, 63))) return capMs;
  return std::min(baseMs << count, capMs);
}

void RetrySchedule::onHandshakeTimeout(uint64_t nowMs) {
  // Reference on_handshake_timeout: an existing entry escalates, a fresh one
  // starts at count 1.
  count_ = active_ ? count_ + 1 : 1;
  active_ = true;
  schedule(nowMs);
}

void RetrySchedule::onLinkLost(uint64_t nowMs) {
  // Reference on_link_dead: an existing entry escalates, a fresh one starts at 0.
  count_ = active_ ? count_ + 1 : 0;
  active_ = true;
  schedule(nowMs);
}

}  // namespace fips::router::link
