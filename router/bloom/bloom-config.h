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
};

}  // namespace fips::router::bloom
