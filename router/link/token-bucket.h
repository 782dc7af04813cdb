// SPDX-License-Identifier: MIT
// A token bucket over an injected millisecond clock, as the reference's msg1
// rate limiter (spec 02 §5, node.rate_limit.handshake_burst/rate). Runs in
// fips-router; it meters untrusted msg1 arrivals.
#pragma once

#include <cstdint>

namespace fips::router::link {

class TokenBucket {
 public:
  // Starts full: capacity tokens, refilled at ratePerSec, never above capacity.
  TokenBucket(uint32_t capacity, double ratePerSec, uint64_t nowMs);

  // Refills for the time since the last call, then takes one token if there is one.
  bool tryAcquire(uint64_t nowMs);
  // Refills for the time since the last call; the tokens now (fractional).
  double available(uint64_t nowMs);
  uint32_t capacity() const { return static_cast<uint32_t>(capacity_); }

 private:
  double capacity_;
  double rate_;
  double tokens_;
  uint64_t lastMs_;
};

// The established-link msg1 bucket derived like the reference's
// derive_established_bucket: burst = maxPeers, rate = maxPeers / rekeyAfterSecs ×
// (1 + maxResends), at least 1/s; the stranger values when maxPeers is 0.
TokenBucket establishedBucket(uint32_t maxPeers, uint64_t rekeyAfterSecs, uint32_t maxResends,
                              uint32_t strangerBurst, double strangerRate, uint64_t nowMs);

}  // namespace fips::router::link
