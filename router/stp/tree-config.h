// SPDX-License-Identifier: MIT
// TreeConfig: the knobs of the spanning tree (node.tree.*), with the
// reference's defaults (FIPS spec 03 §8). Runs in fips-router; filled from the
// validated config (privsep/config TreeConfig), so trusted.
#pragma once

#include <cstdint>

namespace fips::router::stp {

struct TreeConfig {
  uint64_t announceMinIntervalMs = 500;  // per-peer TreeAnnounce rate limit
  double parentHysteresis = 0.2;         // discretionary switch needs best < current × (1 − h)
  uint64_t holdDownSecs = 30;  // no discretionary switch this long after a parent set; 0 = off
  uint64_t reevalIntervalSecs = 60;  // periodic re-evaluation / re-announce; 0 = off
  uint32_t flapThreshold = 4;        // parent changes within the window that engage dampening
  uint64_t flapWindowSecs = 60;
  uint64_t flapDampeningSecs = 120;  // discretionary switches suppressed this long
};

}  // namespace fips::router::stp
