// SPDX-License-Identifier: MIT
// BloomConfig: the knobs of bloom filter propagation (node.bloom.*), with the
// reference's defaults (FIPS spec 03 §8). Runs in fips-router; filled from the
// validated config (privsep/config BloomConfig), so trusted.
#pragma once

#include <cstdint>

namespace fips::router::bloom {

struct BloomConfig {
  uint64_t updateDebounceMs = 500;  // per-peer minimum gap between FilterAnnounces
  double maxInboundFpr = 0.20;      // inbound filters with fill^k above this are rejected
  // Not a node.bloom.* key (a departure from the reference): a filter sent
  // to a peer is sent once more this long after, if nothing was sent to it
  // since, so one lost FilterAnnounce does not leave the peer a stale filter
  // for good (filters are otherwise sent only when they change). 0 = off.
  uint64_t confirmDelayMs = 2000;
};

}  // namespace fips::router::bloom
