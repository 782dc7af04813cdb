// SPDX-License-Identifier: MIT
// Per-session path MTU tracking (FIPS spec 04 §5). Runs in fips-router.
#include "router/fsp/path-mtu-state.h"

#include <algorithm>

#include "router/fsp/fsp-constants.h"

namespace fips::router::fsp {

void PathMtuState::setSrtt(uint64_t srttMs) {
  intervalMs_ = std::max(MIN_NOTIFICATION_INTERVAL_MS, srttMs * 5);
}

void PathMtuState::seedSourceMtu(uint16_t linkMtu) {
  currentMtu_ = std::min(currentMtu_, linkMtu);
}

void PathMtuState::observeIncoming(uint16_t pathMtu) {
  if (pathMtu == lastObservedMtu_) return;
  observedChanged_ = true;
  lastObservedMtu_ = pathMtu;
}

std::optional<uint16_t> PathMtuState::takeNotification(uint64_t nowMs) {
  if (lastObservedMtu_ == UNKNOWN) return std::nullopt;
  const bool due = !lastNotificationMs_ || (observedChanged_ && lastObservedMtu_ < currentMtu_) ||
                   nowMs - *lastNotificationMs_ >= intervalMs_;
  if (!due) return std::nullopt;
  lastNotificationMs_ = nowMs;
  observedChanged_ = false;
  return lastObservedMtu_;
}

bool PathMtuState::applyNotification(uint16_t reportedMtu, uint64_t nowMs) {
  if (reportedMtu < MIN_ACTIONABLE_PATH_MTU) return false;
  if (reportedMtu < currentMtu_) {
    currentMtu_ = reportedMtu;
    increaseCount_ = 0;
    return true;
  }
  if (reportedMtu == currentMtu_) return false;
  if (reportedMtu == pendingIncrease_ && increaseCount_ > 0) {
    if (increaseCount_ < UINT8_MAX) ++increaseCount_;
  } else {
    pendingIncrease_ = reportedMtu;
    increaseCount_ = 1;
    firstIncreaseMs_ = nowMs;
  }
  if (increaseCount_ >= INCREASE_CONFIRMATIONS && nowMs - firstIncreaseMs_ >= 2 * intervalMs_) {
    currentMtu_ = reportedMtu;
    increaseCount_ = 0;
    return true;
  }
  return false;
}

}  // namespace fips::router::fsp
