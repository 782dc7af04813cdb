// SPDX-License-Identifier: MIT
// Token bucket (see token-bucket.h). Runs in fips-router.
#include "router/link/token-bucket.h"

#include <algorithm>

namespace fips::router::link {

TokenBucket::TokenBucket(uint32_t capacity, double ratePerSec, uint64_t nowMs)
    : capacity_(capacity), rate_(ratePerSec), tokens_(capacity), lastMs_(nowMs) {}

double TokenBucket::available(uint64_t nowMs) {
  if (nowMs > lastMs_) {
    tokens_ = std::min(capacity_, tokens_ + static_cast<double>(nowMs - lastMs_) * rate_ / 1000.0);
    lastMs_ = nowMs;
  }
  return tokens_;
}

bool TokenBucket::tryAcquire(uint64_t nowMs) {
  if (available(nowMs) < 1.0) return false;
  tokens_ -= 1.0;
  return true;
}

TokenBucket establishedBucket(uint32_t maxPeers, uint64_t rekeyAfterSecs, uint32_t maxResends,
                              uint32_t strangerBurst, double strangerRate, uint64_t nowMs) {
  if (maxPeers == 0) return TokenBucket(strangerBurst, strangerRate, nowMs);
  const double period = static_cast<double>(std::max<uint64_t>(rekeyAfterSecs, 1));
  const double rate = static_cast<double>(maxPeers) / period * (1.0 + maxResends);
  return TokenBucket(maxPeers, std::max(rate, 1.0), nowMs);
}

}  // namespace fips::router::link
