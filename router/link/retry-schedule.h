// SPDX-License-Identifier: MIT
// Reconnect scheduling for auto-connect (static) peers, as the reference's
// peering reconciler: base × 2^n capped, escalated by handshake timeouts and
// repeated link losses, cleared when the peer comes up (spec 02 §5 step 3).
// Runs in fips-router; driven by the engine's own events only.
#pragma once

#include <cstdint>
#include <optional>

namespace fips::router::link {

// min(baseMs × 2^count, capMs), saturating.
uint64_t retryBackoffMs(uint32_t count, uint64_t baseMs, uint64_t capMs);

// The retry state of one static peer.
class RetrySchedule {
 public:
  RetrySchedule(uint64_t baseMs, uint64_t capMs) : baseMs_(baseMs), capMs_(capMs) {}

  // Our handshake timed out: first failure waits base × 2, later ones escalate.
  void onHandshakeTimeout(uint64_t nowMs);
  // The link was lost (dead, Disconnect, restart): first loss waits base,
  // repeated losses without a successful link in between escalate.
  void onLinkLost(uint64_t nowMs);
  // The peer is up: forget the backoff.
  void clear() {
    dueMs_.reset();
    count_ = 0;
    active_ = false;
  }
  // Dial now: due at nowMs with no backoff history.
  void dialNow(uint64_t nowMs) { dueMs_ = nowMs; }
  bool due(uint64_t nowMs) const { return dueMs_ && nowMs >= *dueMs_; }
  // Consumes the due entry (the dial is under way) but keeps the count.
  void markDialed() { dueMs_.reset(); }
  uint32_t count() const { return count_; }
  std::optional<uint64_t> dueMs() const { return dueMs_; }

 private:
  void schedule(uint64_t nowMs) { dueMs_ = nowMs + retryBackoffMs(count_, baseMs_, capMs_); }

  uint64_t baseMs_;
  uint64_t capMs_;
  std::optional<uint64_t> dueMs_;
  uint32_t count_ = 0;
  bool active_ = false;  // a retry entry exists (the reference's retry_pending)
};

}  // namespace fips::router::link
