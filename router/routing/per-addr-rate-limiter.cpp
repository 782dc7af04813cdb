// SPDX-License-Identifier: MIT
// Per-key minimum-interval limiter. Runs in fips-router.
#include "router/routing/per-addr-rate-limiter.h"

#include <algorithm>

namespace fips::router::routing {

template <typename Key>
KeyedRateLimiter<Key>::KeyedRateLimiter(uint64_t minIntervalMs, uint64_t maxAgeMs)
    : minIntervalMs_(minIntervalMs), maxAgeMs_(std::max(maxAgeMs, minIntervalMs)) {}

template <typename Key>
bool KeyedRateLimiter<Key>::allow(const Key& key, uint64_t nowMs) {
  const auto it = last_.find(key);
  if (it != last_.end()) {
    const uint64_t elapsed = nowMs > it->second ? nowMs - it->second : 0;
    if (elapsed < minIntervalMs_) return false;
    it->second = nowMs;
    return true;
  }
  last_.emplace(key, nowMs);
  // Purge when the map has doubled since the last purge: amortised O(log n).
  if (last_.size() >= purgeAt_) {
    purge(nowMs);
    purgeAt_ = std::max<size_t>(64, 2 * last_.size());
  }
  return true;
}

template <typename Key>
void KeyedRateLimiter<Key>::purge(uint64_t nowMs) {
  std::erase_if(last_, [&](const auto& entry) {
    return nowMs > entry.second && nowMs - entry.second >= maxAgeMs_;
  });
}

template class KeyedRateLimiter<NodeAddr>;

}  // namespace fips::router::routing
