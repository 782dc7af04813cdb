// SPDX-License-Identifier: MIT
// The receiving side of link-layer MMP for one link (FIPS spec 02 §9.2,
// §9.3; the reference's src/proto/mmp/receiver.rs): per authenticated frame,
// cumulative and interval counts, highest counter and reordering, loss bursts
// from counter gaps, CE marks, RFC 3550 jitter and the one-way-delay trend;
// builds ReceiverReports on the report schedule. Runs in fips-router; counters
// and timestamps are the peer's (authenticated but untrusted): arithmetic on
// them saturates, never traps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "router/fmp/link-reports.h"
#include "router/link/mmp-estimators.h"
#include "router/link/mmp-sender.h"

namespace fips::router::link {

// Jitter is not sampled for this long after a rekey cutover (counters and
// timestamps restart), spec 02 §9.3.
constexpr uint64_t MMP_REKEY_JITTER_GRACE_MS = 15'000;

class MmpReceiver {
 public:
  explicit MmpReceiver(size_t owdWindow, const MmpSchedule& schedule = LINK_MMP_SCHEDULE)
      : schedule_(schedule), owd_(owdWindow), intervalMs_(schedule.coldStartMs) {}

  // One authenticated frame: AEAD counter, the sender's inner timestamp
  // (its session ms), whole FMP packet size in bytes, its CE flag.
  void recordReceived(uint64_t counter, uint32_t senderTimestampMs, uint64_t bytes, bool ce,
                      uint64_t nowMs);
  // A frame counted as traffic only (cumulative and interval packets/bytes):
  // its counter and timestamp are not comparable with the current ones.
  void recordTrafficOnly(uint64_t bytes);
  bool reportDue(uint64_t nowMs) const;
  // The report for the interval just ended; nullopt if no frame arrived since
  // the last one. The echo is the latest frame's timestamp with its dwell
  // time (echo 0 and dwell 65535 past 65.535 s).
  std::optional<fmp::ReceiverReport> buildReport(uint64_t nowMs);
  // After each SRTT update: interval = clamp(SRTT, floor, ceiling).
  void updateIntervalFromSrtt(int64_t srttUs);
  // Rekey cutover: counters restart, so highest/reorder/gaps/jitter/OWD/CE
  // start over (cumulative packets and bytes stay).
  void resetForRekey(uint64_t nowMs);

  uint64_t packetsReceived() const { return packets_; }
  uint64_t bytesReceived() const { return bytes_; }
  uint64_t highestCounter() const { return highest_; }
  uint32_t jitterUs() const { return jitter_.jitterUs(); }
  uint32_t ecnCeCount() const { return ecnCe_; }
  uint64_t reorderCount() const { return reorder_; }
  uint64_t lossBursts() const { return lossBursts_; }
  uint64_t reportIntervalMs() const { return intervalMs_; }
  std::optional<uint64_t> lastReceivedMs() const { return lastRecvMs_; }

 private:
  // Loss bursts from counter gaps within one report interval.
  struct GapTracker {
    std::optional<uint64_t> expectedNext;
    bool inBurst = false;
    uint16_t burstLen = 0;
    uint32_t bursts = 0;
    uint16_t maxBurst = 0;
    uint64_t totalBurst = 0;
    void observe(uint64_t counter);
    void finishBurst();
  };

  MmpSchedule schedule_;
  uint64_t packets_ = 0;
  uint64_t bytes_ = 0;
  uint64_t reorder_ = 0;
  uint64_t highest_ = 0;
  uint32_t intervalPackets_ = 0;
  uint32_t intervalBytes_ = 0;
  JitterEstimator jitter_;
  OwdTrend owd_;
  uint32_t owdSeq_ = 0;
  GapTracker gaps_;
  uint64_t lossBursts_ = 0;  // every burst since the link came up (stats only)
  uint32_t ecnCe_ = 0;
  uint32_t lastSenderTimestamp_ = 0;
  std::optional<uint64_t> lastRecvMs_;
  std::optional<uint64_t> jitterGraceUntilMs_;
  std::optional<uint64_t> lastReportMs_;
  uint64_t intervalMs_;
  bool intervalHasData_ = false;
  uint32_t srttSamples_ = 0;
};

}  // namespace fips::router::link
