// SPDX-License-Identifier: MIT
// Path MTU tracking of one FSP session (FIPS spec 04 §5; reference
// src/proto/mmp/path_mtu.rs), both roles: as destination it remembers the
// path_mtu of arriving datagrams and decides when to send a
// PathMtuNotification; as source it keeps the current path MTU, lowered at
// once and raised only after 3 consistent notifications spanning at least
// 2 intervals. Runs in fips-router; notifications and MtuExceeded values come
// from remote nodes (untrusted), clock injected (ms).
#pragma once

#include <cstdint>
#include <optional>

namespace fips::router::fsp {

class PathMtuState {
 public:
  // No measurement / no limit yet.
  static constexpr uint16_t UNKNOWN = UINT16_MAX;
  // Notification interval before an SRTT is known, and its floor (ms).
  static constexpr uint64_t MIN_NOTIFICATION_INTERVAL_MS = 10'000;
  static constexpr uint8_t INCREASE_CONFIRMATIONS = 3;

  // Source side: the MTU to fit datagrams to (UNKNOWN until seeded or told).
  uint16_t currentMtu() const { return currentMtu_; }
  // Destination side: the last path_mtu seen on an arriving datagram.
  uint16_t lastObservedMtu() const { return lastObservedMtu_; }
  uint64_t notificationIntervalMs() const { return intervalMs_; }

  // interval = max(10 s, 5 × SRTT).
  void setSrtt(uint64_t srttMs);
  // Source: the first-hop link MTU of a send; only ever lowers the current MTU.
  void seedSourceMtu(uint16_t linkMtu);
  // Destination: path_mtu of an arriving datagram of this session.
  void observeIncoming(uint16_t pathMtu);
  // Destination: a notification is due (first measurement, an observed
  // decrease below the current value, or the interval has passed). Returns
  // the value to send and records the send; nullopt if none is due.
  std::optional<uint16_t> takeNotification(uint64_t nowMs);
  // Source: a PathMtuNotification or MtuExceeded value. Values below 256 are
  // ignored; lower values apply at once; a higher value applies on its third
  // consecutive report ≥ 2 intervals after the first. True if current changed.
  bool applyNotification(uint16_t reportedMtu, uint64_t nowMs);

 private:
  uint16_t currentMtu_ = UNKNOWN;
  uint16_t lastObservedMtu_ = UNKNOWN;
  bool observedChanged_ = false;
  std::optional<uint64_t> lastNotificationMs_;
  uint64_t intervalMs_ = MIN_NOTIFICATION_INTERVAL_MS;
  uint8_t increaseCount_ = 0;
  uint16_t pendingIncrease_ = 0;
  uint64_t firstIncreaseMs_ = 0;
};

}  // namespace fips::router::fsp
