// SPDX-License-Identifier: MIT
// The sending side of link-layer MMP for one link (FIPS spec 02 §9.1, §9.3;
// the reference's src/proto/mmp/sender.rs): counts every frame we seal and
// builds SenderReports on the report schedule. Runs in fips-router; inputs are
// our own frames (trusted).
#pragma once

#include <cstdint>
#include <optional>

#include "router/fmp/link-reports.h"

namespace fips::router::link {

// Report schedule constants (ms), spec 02 §9.3 and the reference's limits.rs.
constexpr uint64_t MMP_COLD_START_INTERVAL_MS = 200;  // before SRTT, and floor for 5 samples
constexpr uint64_t MMP_MIN_REPORT_INTERVAL_MS = 1000;
constexpr uint64_t MMP_MAX_REPORT_INTERVAL_MS = 5000;
constexpr uint32_t MMP_COLD_START_SAMPLES = 5;

// The report timing of one MMP layer (ms). The link layer and the FSP
// session layer (spec 04 §3.3: longer intervals, since session reports cross
// every transit link) run the same sender and receiver with different ones.
struct MmpSchedule {
  uint64_t coldStartMs;       // interval before the first SRTT
  uint64_t coldStartFloorMs;  // floor for the first MMP_COLD_START_SAMPLES SRTT updates
  uint64_t minMs;             // floor after them
  uint64_t maxMs;             // ceiling
};

// Link layer (spec 02 §9.3): 200 ms cold start and floor, then 1-5 s.
constexpr MmpSchedule LINK_MMP_SCHEDULE{.coldStartMs = MMP_COLD_START_INTERVAL_MS,
                                        .coldStartFloorMs = MMP_COLD_START_INTERVAL_MS,
                                        .minMs = MMP_MIN_REPORT_INTERVAL_MS,
                                        .maxMs = MMP_MAX_REPORT_INTERVAL_MS};

// The report interval for an SRTT sample: clamp(multiplier × SRTT, floor,
// schedule.maxMs), floor schedule.coldStartFloorMs for the first 5 samples
// then schedule.minMs (link: 200 ms, then 1000 ms, cap 5000 ms).
uint64_t mmpReportIntervalMs(int64_t srttUs, uint32_t multiplier, uint32_t sampleCount,
                             const MmpSchedule& schedule = LINK_MMP_SCHEDULE);

class MmpSender {
 public:
  explicit MmpSender(const MmpSchedule& schedule = LINK_MMP_SCHEDULE)
      : schedule_(schedule), intervalMs_(schedule.coldStartMs) {}

  // One sealed frame: its AEAD counter, inner timestamp (session ms) and
  // whole FMP packet size in bytes.
  void recordSent(uint64_t counter, uint32_t timestampMs, uint64_t bytes);
  // Frames were sent since the last report and the interval (× the failure
  // backoff) has passed, or no report was ever sent.
  bool reportDue(uint64_t nowMs) const;
  // The report for the interval just ended, which starts a new one; nullopt
  // if nothing was sent since the last report.
  std::optional<fmp::SenderReport> buildReport(uint64_t nowMs);
  // A report could not be sealed: the interval backs off ×2^n (cap ×32).
  void recordSendFailure() { ++sendFailures_; }
  void recordSendSuccess() { sendFailures_ = 0; }
  // After each SRTT update: interval = clamp(2 × SRTT, floor, ceiling).
  void updateIntervalFromSrtt(int64_t srttUs);

  uint64_t packetsSent() const { return packets_; }
  uint64_t bytesSent() const { return bytes_; }
  uint64_t reportIntervalMs() const { return intervalMs_; }

 private:
  MmpSchedule schedule_;
  uint64_t packets_ = 0;
  uint64_t bytes_ = 0;
  uint64_t intervalStartCounter_ = 0;
  uint32_t intervalStartTimestamp_ = 0;
  uint32_t intervalBytes_ = 0;
  uint64_t lastCounter_ = 0;
  uint32_t lastTimestamp_ = 0;
  bool intervalHasData_ = false;
  std::optional<uint64_t> lastReportMs_;
  uint64_t intervalMs_;
  uint32_t sendFailures_ = 0;
  uint32_t srttSamples_ = 0;
};

}  // namespace fips::router::link
