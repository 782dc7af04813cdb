// SPDX-License-Identifier: MIT
// Rekey trigger helpers (see rekey-policy.h). Runs in fips-router.
#include "router/noise/rekey-policy.h"

#include <algorithm>

namespace fips::router::noise {

bool drawRekeyJitter(crypto::Rng& rng, int64_t& jitterSecs) {
  return crypto::uniformInt(rng, -REKEY_JITTER_SECS, REKEY_JITTER_SECS, jitterSecs);
}

bool rekeyDue(const RekeyConfig& cfg, uint64_t sessionAgeMs, int64_t jitterSecs,
              uint64_t sendCounter) {
  // saturating afterSecs + jitter, as the reference's saturating_add_signed.
  uint64_t afterSecs = cfg.afterSecs;
  if (jitterSecs < 0) {
    const auto minus = static_cast<uint64_t>(-jitterSecs);
    afterSecs = afterSecs > minus ? afterSecs - minus : 0;
  } else {
    afterSecs += static_cast<uint64_t>(jitterSecs);
  }
  return sessionAgeMs / 1000 >= afterSecs || sendCounter >= cfg.afterMessages;
}

bool keepsInitiatorRole(const NodeAddrBytes& local, const NodeAddrBytes& remote) {
  return std::lexicographical_compare(local.begin(), local.end(), remote.begin(), remote.end());
}

}  // namespace fips::router::noise
