// SPDX-License-Identifier: MIT
// Hold-down and flap dampening of parent switches (FIPS spec 03 §3, reference
// src/proto/stp/limits.rs). Runs in fips-router.
#include "router/stp/flap-dampener.h"

#include <algorithm>
#include <limits>

namespace fips::router::stp {

namespace {

// A year: the reference's cap on one dampening episode (keeps a hostile
// setting from overflowing the deadline).
constexpr uint64_t MAX_DAMPENING_MS = 365ULL * 24 * 60 * 60 * 1000;

uint64_t secsToMs(uint64_t secs) {
  constexpr uint64_t LIMIT = std::numeric_limits<uint64_t>::max() / 1000;
  return std::min(secs, LIMIT) * 1000;
}

}  // namespace

FlapDampener::FlapDampener(const TreeConfig& config)
    : holdDownMs_(secsToMs(config.holdDownSecs)),
      threshold_(config.flapThreshold),
      windowMs_(secsToMs(config.flapWindowSecs)),
      dampeningMs_(std::min(secsToMs(config.flapDampeningSecs), MAX_DAMPENING_MS)) {}

void FlapDampener::markParentSet(uint64_t nowMs) {
  lastParentSet_ = nowMs;
}

bool FlapDampener::recordParentChange(uint64_t nowMs) {
  // A lapsed episode is retired with its count, so the next one again needs
  // a full threshold of changes inside one window.
  if (dampenedUntil_ && !dampened(nowMs)) {
    dampenedUntil_.reset();
    count_ = 0;
    windowStart_.reset();
  }
  if (windowStart_ && nowMs - std::min(nowMs, *windowStart_) < windowMs_) {
    ++count_;
  } else {
    windowStart_ = nowMs;
    count_ = 1;
  }
  if (count_ >= threshold_ && !dampened(nowMs)) {
    dampenedUntil_ = nowMs + dampeningMs_;
    return true;
  }
  return false;
}

bool FlapDampener::dampened(uint64_t nowMs) const {
  return dampenedUntil_ && nowMs < *dampenedUntil_;
}

bool FlapDampener::holdDownActive(uint64_t nowMs) const {
  return holdDownMs_ != 0 && lastParentSet_ &&
         nowMs - std::min(nowMs, *lastParentSet_) < holdDownMs_;
}

}  // namespace fips::router::stp
