// SPDX-License-Identifier: MIT
// Transit LookupRequest forward limiter (see forward-limiter.h). Runs in
// fips-router.
#include "router/lookup/forward-limiter.h"

#include <algorithm>

namespace fips::router::lookup {

ForwardLimiter::ForwardLimiter(uint64_t minIntervalMs, uint64_t retryIntervalMs, uint64_t maxAgeMs)
    : minIntervalMs_(minIntervalMs),
      retryIntervalMs_(std::min(retryIntervalMs, minIntervalMs)),
      maxAgeMs_(std::max(maxAgeMs, minIntervalMs)) {}

bool ForwardLimiter::allow(const NodeAddr& target, const NodeAddr& origin, uint64_t nowMs) {
  const auto it = last_.find(target);
  if (it != last_.end()) {
    const uint64_t elapsed = nowMs > it->second.ms ? nowMs - it->second.ms : 0;
    const uint64_t need = origin == it->second.origin ? retryIntervalMs_ : minIntervalMs_;
    if (elapsed < need) return false;
    it->second = {.ms = nowMs, .origin = origin};
    return true;
  }
  last_.emplace(target, Last{.ms = nowMs, .origin = origin});
  // Purge when the map has doubled since the last purge: amortised O(log n).
  if (last_.size() >= purgeAt_) {
    purge(nowMs);
    purgeAt_ = std::max<size_t>(64, 2 * last_.size());
  }
  return true;
}

void ForwardLimiter::purge(uint64_t nowMs) {
  std::erase_if(last_, [&](const auto& entry) {
    return nowMs > entry.second.ms && nowMs - entry.second.ms >= maxAgeMs_;
  });
}

}  // namespace fips::router::lookup
