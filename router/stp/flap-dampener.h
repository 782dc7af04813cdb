// SPDX-License-Identifier: MIT
// FlapDampener: the hold-down and flap-dampening veto on discretionary parent
// switches (FIPS spec 03 §3 step 8, reference src/proto/stp/limits.rs). Runs
// in fips-router; driven by the injected monotonic clock (milliseconds).
#pragma once

#include <cstdint>
#include <optional>

#include "router/stp/tree-config.h"

namespace fips::router::stp {

class FlapDampener {
 public:
  explicit FlapDampener(const TreeConfig& config);

  // Stamps a parent set (every new declaration with a parent, changed or
  // not): restarts the hold-down.
  void markParentSet(uint64_t nowMs);
  // Counts a real parent change in the flap window; true if this change
  // engaged dampening (threshold reached).
  bool recordParentChange(uint64_t nowMs);
  bool dampened(uint64_t nowMs) const;
  bool holdDownActive(uint64_t nowMs) const;
  // True while a discretionary switch must not be taken.
  bool suppressed(uint64_t nowMs) const { return holdDownActive(nowMs) || dampened(nowMs); }

 private:
  uint64_t holdDownMs_;
  uint32_t threshold_;
  uint64_t windowMs_;
  uint64_t dampeningMs_;
  std::optional<uint64_t> lastParentSet_;
  uint32_t count_ = 0;
  std::optional<uint64_t> windowStart_;
  std::optional<uint64_t> dampenedUntil_;
};

}  // namespace fips::router::stp
