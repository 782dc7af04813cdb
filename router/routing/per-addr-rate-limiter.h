// SPDX-License-Identifier: MIT
// PerAddrRateLimiter: at most one event per NodeAddr per minimum interval,
// on an injected millisecond clock (src/proto/rate_limit.rs). Used for the
// routing error signals (100 ms per destination, spec 03 §6) and the transit
// LookupRequest forward limit (2 s per target, spec 03 §5.3). Runs in
// fips-router; keys come from untrusted traffic, so entries older than a
// maximum age are purged and each call is amortised O(log n).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include "router/identity/node-addr.h"

namespace fips::router::routing {

using identity::NodeAddr;

class PerAddrRateLimiter {
 public:
  // minIntervalMs between allowed events per address; entries idle for
  // maxAgeMs (>= minIntervalMs) are forgotten.
  PerAddrRateLimiter(uint64_t minIntervalMs, uint64_t maxAgeMs);

  // True (and records nowMs) if addr had no allowed event in the last
  // minIntervalMs; false otherwise.
  bool allow(const NodeAddr& addr, uint64_t nowMs);
  // Forgets entries older than maxAgeMs.
  void purge(uint64_t nowMs);
  size_t size() const { return last_.size(); }

 private:
  uint64_t minIntervalMs_;
  uint64_t maxAgeMs_;
  size_t purgeAt_ = 64;  // next size that triggers a purge
  std::map<NodeAddr, uint64_t> last_;
};

}  // namespace fips::router::routing
