// SPDX-License-Identifier: MIT
// Admission of inbound SessionSetups per FMP link peer (FIPS spec 04 §2.4,
// node.rate_limit.session_setup_burst / session_setup_rate; reference
// SessionSetupRateLimiter): two token buckets per link peer, one for setups
// that would create a new session ("stranger") and one for setups naming a
// node we already have an established session with (rekey/restart), so a
// sprayer cannot starve rekeys. Keyed on the authenticated link peer, never
// on the sender-chosen src_addr. Idle peers are forgotten after 300 s. Runs
// in fips-router; clock injected (ms).
#pragma once

#include <cstdint>
#include <unordered_map>

#include "router/fsp/pending-queue.h"
#include "router/link/token-bucket.h"

namespace fips::router::fsp {

struct SetupRateConfig {
  uint32_t strangerBurst = 64;
  double strangerRate = 16.0;  // per second
  uint32_t establishedBurst = 64;
  double establishedRate = 16.0;
};

class SetupRateLimiter {
 public:
  static constexpr uint64_t IDLE_MS = 300'000;

  explicit SetupRateLimiter(const SetupRateConfig& cfg) : cfg_(cfg) {}
  // Charges one setup arriving over linkPeer; false means drop it unprocessed.
  bool admit(const identity::NodeAddr& linkPeer, bool established, uint64_t nowMs);
  size_t size() const { return peers_.size(); }

 private:
  struct Buckets {
    link::TokenBucket stranger;
    link::TokenBucket established;
    uint64_t seenMs;
  };
  SetupRateConfig cfg_;
  std::unordered_map<identity::NodeAddr, Buckets, NodeAddrHash> peers_;
};

}  // namespace fips::router::fsp
