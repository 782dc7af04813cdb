// SPDX-License-Identifier: MIT
// KeyedRateLimiter: at most one event per key per minimum interval, on an
// injected millisecond clock (src/proto/rate_limit.rs). PerAddrRateLimiter
// (key: one NodeAddr) is used for the routing error signals (100 ms per
// destination, spec 03 §6; the transit lookup forward limit is the flat
// router/lookup/forward-limiter). Runs in fips-router; keys come from untrusted traffic, so entries
// older than a maximum age are purged and each call is amortised O(log n).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include "lib/identity/node-addr.h"

namespace fips::router::routing {

using identity::NodeAddr;

template <typename Key>
class KeyedRateLimiter {
 public:
  // minIntervalMs between allowed events per key; entries idle for
  // maxAgeMs (>= minIntervalMs) are forgotten.
  KeyedRateLimiter(uint64_t minIntervalMs, uint64_t maxAgeMs);

  // True (and records nowMs) if key had no allowed event in the last
  // minIntervalMs; false otherwise.
  bool allow(const Key& key, uint64_t nowMs);
  // Forgets entries older than maxAgeMs.
  void purge(uint64_t nowMs);
  size_t size() const { return last_.size(); }

 private:
  uint64_t minIntervalMs_;
  uint64_t maxAgeMs_;
  size_t purgeAt_ = 64;  // next size that triggers a purge
  std::map<Key, uint64_t> last_;
};

// The key type in use (instantiated in per-addr-rate-limiter.cpp).
using PerAddrRateLimiter = KeyedRateLimiter<NodeAddr>;
extern template class KeyedRateLimiter<NodeAddr>;

}  // namespace fips::router::routing
