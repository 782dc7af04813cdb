// SPDX-License-Identifier: MIT
// Rekey triggers and constants shared by the link (FMP) and session (FSP)
// layers: thresholds, per-session jitter, dampening and the dual-initiation
// tie-break. Runs in fips-router; pure functions over injected time and rng.
#pragma once

#include <array>
#include <cstdint>

#include "lib/crypto/rng.h"

namespace fips::router::noise {

// node.rekey.* (spec 01 §8); defaults as in the reference.
struct RekeyConfig {
  bool enabled = true;
  uint64_t afterSecs = 120;
  uint64_t afterMessages = uint64_t{1} << 16U;
};

constexpr int64_t REKEY_JITTER_SECS = 15;              // jitter drawn from [-15, +15] s
constexpr uint64_t REKEY_DAMPENING_MS = 30'000;        // no own rekey after a peer's msg1
constexpr uint64_t REKEY_MIN_SESSION_AGE_MS = 30'000;  // FMP responder: younger → duplicate
constexpr uint64_t SESSION_CUTOVER_DELAY_MS = 2'000;   // FSP initiator cutover delay

// A 16-byte NodeAddr (first 16 bytes of SHA-256 of the x-only key).
using NodeAddrBytes = std::array<uint8_t, 16>;

// Draws a fresh per-session jitter in whole seconds; false if rng fails.
[[nodiscard]] bool drawRekeyJitter(crypto::Rng& rng, int64_t& jitterSecs);

// The reference's trigger: session age ≥ max(0, afterSecs + jitter) seconds,
// or the current send counter ≥ afterMessages. Does not look at enabled,
// in-progress or dampening state; callers gate on those.
bool rekeyDue(const RekeyConfig& cfg, uint64_t sessionAgeMs, int64_t jitterSecs,
              uint64_t sendCounter);

// Dual initiation: the node with the smaller NodeAddr (bytewise) keeps its
// initiator role and drops the peer's msg1; the larger abandons and answers.
bool keepsInitiatorRole(const NodeAddrBytes& local, const NodeAddrBytes& remote);

}  // namespace fips::router::noise
