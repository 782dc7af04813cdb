// SPDX-License-Identifier: MIT
// Per-address minimum-interval limiter. Runs in fips-router.
#include "router/routing/per-addr-rate-limiter.h"

#include <algorithm>

namespace fips::router::routing {

PerAddrRateLimiter::PerAddrRateLimiter(uint64_t minIntervalMs, uint64_t maxAgeMs)
    : minIntervalMs_(minIntervalMs), maxAgeMs_(std::max(maxAgeMs, minIntervalMs)) {}

bool PerAddrRateLimiter::allow(const NodeAddr& addr, uint64_t nowMs) {
  const auto it = last_.find(addr);
  if (it != last_.end()) {
    const uint64_t elapsed = nowMs > it->second ? nowMs - it->second : 0;
    if (elapsed < minIntervalMs_) return false;
    it->second = nowMs;
    return true;
  }
  last_.emplace(addr, nowMs);
  // Purge when the map has doubled since the last purge: amortised O(log n).
  if (last_.size() >= purgeAt_) {
    purge(nowMs);
    purgeAt_ = std::max<size_t>(64, 2 * last_.size());
  }
  return true;
}

void PerAddrRateLimiter::purge(uint64_t nowMs) {
  std::erase_if(last_, [&](const auto& entry) {
    return nowMs > entry.second && nowMs - entry.second >= maxAgeMs_;
  });
}

}  // namespace fips::router::routing
