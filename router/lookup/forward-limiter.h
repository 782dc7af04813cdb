// SPDX-License-Identifier: MIT
// ForwardLimiter: the transit LookupRequest forward limit, one forward per
// target per minimum interval (spec 03 §5.3, the reference's per-target
// limiter), except that the origin whose request was forwarded last may
// retry sooner. Departure from the reference: there, a retry with a fresh
// request_id 1 s after the first attempt (the ladder's first step) meets the
// 2 s limit at every transit node the first attempt crossed and dies, so
// over lossy links the second attempt is wasted. Runs in fips-router; keys
// come from untrusted requests, so idle entries are purged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include "router/identity/node-addr.h"

namespace fips::router::lookup {

using identity::NodeAddr;

class ForwardLimiter {
 public:
  // minIntervalMs between forwards for one target; retryIntervalMs (<=
  // minIntervalMs) for the origin forwarded last; entries idle maxAgeMs are
  // forgotten.
  ForwardLimiter(uint64_t minIntervalMs, uint64_t retryIntervalMs, uint64_t maxAgeMs);

  // True (and records the forward) if a request from origin for target may
  // be forwarded at nowMs.
  bool allow(const NodeAddr& target, const NodeAddr& origin, uint64_t nowMs);
  size_t size() const { return last_.size(); }

 private:
  struct Last {
    uint64_t ms = 0;
    NodeAddr origin;
  };
  void purge(uint64_t nowMs);

  uint64_t minIntervalMs_;
  uint64_t retryIntervalMs_;
  uint64_t maxAgeMs_;
  size_t purgeAt_ = 64;  // next size that triggers a purge
  std::map<NodeAddr, Last> last_;
};

}  // namespace fips::router::lookup
