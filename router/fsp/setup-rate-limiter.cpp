// SPDX-License-Identifier: MIT
// Per-link-peer SessionSetup admission (FIPS spec 04 §2.4). Runs in fips-router.
#include "router/fsp/setup-rate-limiter.h"

namespace fips::router::fsp {

bool SetupRateLimiter::admit(const identity::NodeAddr& linkPeer, bool established, uint64_t nowMs) {
  auto it = peers_.find(linkPeer);
  if (it == peers_.end()) {
    it = peers_
             .emplace(linkPeer,
                      Buckets{link::TokenBucket(cfg_.strangerBurst, cfg_.strangerRate, nowMs),
                              link::TokenBucket(cfg_.establishedBurst, cfg_.establishedRate, nowMs),
                              nowMs})
             .first;
  }
  it->second.seenMs = nowMs;
  const bool admitted = established ? it->second.established.tryAcquire(nowMs)
                                    : it->second.stranger.tryAcquire(nowMs);
  if (admitted) {
    std::erase_if(peers_, [&](const auto& kv) { return nowMs - kv.second.seenMs >= IDLE_MS; });
  }
  return admitted;
}

}  // namespace fips::router::fsp
