// SPDX-License-Identifier: MIT
// What one node derives from its peer's ReceiverReports about a link (FIPS
// spec 02 §9.3; the reference's src/proto/mmp/metrics.rs): RTT from the
// timestamp echo (SRTT/RTTVAR), forward and reverse delivery ratios, ETX,
// goodput and the dual-EWMA trends. Runs in fips-router; reports are the
// peer's (authenticated, untrusted): stale or regressed ones are ignored.
#pragma once

#include <cstdint>
#include <optional>

#include "router/fmp/link-reports.h"
#include "router/link/mmp-estimators.h"

namespace fips::router::link {

// What one ReceiverReport did.
enum class ReportVerdict : uint8_t {
  ACCEPTED,  // counters moved on (an RTT sample may or may not have been taken)
  STALE,     // cumulative counters regressed or repeat the previous report: ignored
};

class MmpMetrics {
 public:
  // A ReceiverReport about our traffic; ourTimestampMs is our session clock
  // now (the base of the timestamps we send). RTT sample = ours - (echo +
  // dwell) when echo > 0 and the result is positive; a result of 0 counts
  // in rttZeroSamples(), an echo + dwell that wraps 32 bits or exceeds ours
  // in rttArithFailures().
  ReportVerdict onReceiverReport(const fmp::ReceiverReport& rr, uint32_t ourTimestampMs,
                                 uint64_t nowMs);
  // Reverse delivery ratio from our own receive counts, on each report:
  // Δ packets received / Δ the peer's highest counter.
  void updateReverseDelivery(uint64_t ourPacketsReceived, uint64_t peerHighestCounter);
  // Rekey cutover: the report baselines restart.
  void resetForRekey();

  const SrttEstimator& srtt() const { return srtt_; }
  std::optional<double> srttMs() const;
  double deliveryForward() const { return deliveryForward_; }
  double deliveryReverse() const { return deliveryReverse_; }
  double lossRate() const { return 1.0 - deliveryForward_; }
  double etx() const { return etx_; }
  double goodputBps() const { return goodputBps_; }
  // Long-term EWMAs, once the first sample arrived.
  std::optional<double> smoothedLoss() const;
  std::optional<double> smoothedEtx() const;
  const DualEwma& rttTrend() const { return rttTrend_; }
  const DualEwma& lossTrend() const { return lossTrend_; }
  const DualEwma& goodputTrend() const { return goodputTrend_; }
  const DualEwma& jitterTrend() const { return jitterTrend_; }
  const DualEwma& etxTrend() const { return etxTrend_; }
  // CE count of the latest accepted report (the peer's view of our frames).
  uint32_t lastEcnCeCount() const { return prevEcnCe_; }
  uint64_t reportsSeen() const { return reportsSeen_; }
  uint64_t rttSamples() const { return rttSamples_; }
  // Echoes whose RTT truncated to 0 ms (expected on loopback and same-host
  // paths): not samples.
  uint64_t rttZeroSamples() const { return rttZeroSamples_; }
  // Echoes whose echo + dwell wrapped 32 bits or lay after our clock (a
  // stale or bogus echo, or a wrapped session clock): not samples.
  uint64_t rttArithFailures() const { return rttArithFailures_; }
  std::optional<uint32_t> lastRttMs() const { return lastRttMs_; }

 private:
  SrttEstimator srtt_;
  DualEwma rttTrend_;
  DualEwma lossTrend_;
  DualEwma goodputTrend_;
  DualEwma jitterTrend_;
  DualEwma etxTrend_;
  double deliveryForward_ = 1.0;
  double deliveryReverse_ = 1.0;
  double etx_ = 1.0;
  double goodputBps_ = 0.0;
  bool hasPrev_ = false;
  uint64_t prevPackets_ = 0;
  uint64_t prevBytes_ = 0;
  uint64_t prevHighest_ = 0;
  uint32_t prevEcnCe_ = 0;
  uint32_t prevReorder_ = 0;
  std::optional<uint64_t> prevReportMs_;
  bool hasPrevReverse_ = false;
  uint64_t prevReversePackets_ = 0;
  uint64_t prevReverseHighest_ = 0;
  uint64_t reportsSeen_ = 0;
  uint64_t rttSamples_ = 0;
  uint64_t rttZeroSamples_ = 0;
  uint64_t rttArithFailures_ = 0;
  std::optional<uint32_t> lastRttMs_;
};

}  // namespace fips::router::link
