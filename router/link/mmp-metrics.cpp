// SPDX-License-Identifier: MIT
// Link metrics from ReceiverReports (see mmp-metrics.h). Runs in fips-router;
// reports are the peer's: every difference saturates at zero.
#include "router/link/mmp-metrics.h"

#include <algorithm>

namespace fips::router::link {

namespace {

uint64_t satSub(uint64_t a, uint64_t b) {
  return a > b ? a - b : 0;
}

double ratio(uint64_t delivered, uint64_t span) {
  return std::clamp(static_cast<double>(delivered) / static_cast<double>(span), 0.0, 1.0);
}

}  // namespace

ReportVerdict MmpMetrics::onReceiverReport(const fmp::ReceiverReport& rr, uint32_t ourTimestampMs,
                                           uint64_t nowMs) {
  ++reportsSeen_;
  if (hasPrev_) {
    const bool regressed = rr.highestCounter < prevHighest_ ||
                           rr.cumulativePacketsRecv < prevPackets_ ||
                           rr.cumulativeBytesRecv < prevBytes_ || rr.ecnCeCount < prevEcnCe_ ||
                           rr.cumulativeReorderCount < prevReorder_;
    const bool repeated = rr.highestCounter == prevHighest_ &&
                          rr.cumulativePacketsRecv == prevPackets_ &&
                          rr.cumulativeBytesRecv == prevBytes_ && rr.ecnCeCount == prevEcnCe_ &&
                          rr.cumulativeReorderCount == prevReorder_;
    if (regressed || repeated) return ReportVerdict::STALE;
  }

  // FIPS spec 02 §9.3: RTT = now_ts − (timestamp_echo + dwell_time).
  // An echo whose sum wraps or lies in our future counts as an arithmetic
  // failure, an RTT that truncates to 0 ms as a zero sample (sub-millisecond
  // path); neither is a sample.
  if (rr.timestampEcho > 0) {
    const uint64_t sent = uint64_t{rr.timestampEcho} + rr.dwellTime;
    if (sent > UINT32_MAX || ourTimestampMs < sent) {
      ++rttArithFailures_;
    } else if (ourTimestampMs == sent) {
      ++rttZeroSamples_;
    } else {
      const auto rttMs = static_cast<uint32_t>(ourTimestampMs - sent);
      const int64_t rttUs = int64_t{rttMs} * 1000;
      ++rttSamples_;
      lastRttMs_ = rttMs;
      srtt_.update(rttUs);
      rttTrend_.update(static_cast<double>(rttUs));
    }
  }

  if (hasPrev_) {
    const uint64_t span = satSub(rr.highestCounter, prevHighest_);
    if (span > 0) {
      deliveryForward_ = ratio(satSub(rr.cumulativePacketsRecv, prevPackets_), span);
      lossTrend_.update(1.0 - deliveryForward_);
      etx_ = computeEtx(deliveryForward_, deliveryReverse_);
      etxTrend_.update(etx_);
    }
    const uint64_t bytes = satSub(rr.cumulativeBytesRecv, prevBytes_);
    goodputTrend_.update(static_cast<double>(bytes));
    if (prevReportMs_ && nowMs > *prevReportMs_) {
      const double bps =
          static_cast<double>(bytes) / (static_cast<double>(nowMs - *prevReportMs_) / 1000.0);
      goodputBps_ = goodputBps_ == 0.0 ? bps : goodputBps_ + (bps - goodputBps_) * 0.25;
    }
  }
  jitterTrend_.update(static_cast<double>(rr.jitter));

  prevPackets_ = rr.cumulativePacketsRecv;
  prevBytes_ = rr.cumulativeBytesRecv;
  prevHighest_ = rr.highestCounter;
  prevEcnCe_ = rr.ecnCeCount;
  prevReorder_ = rr.cumulativeReorderCount;
  prevReportMs_ = nowMs;
  hasPrev_ = true;
  return ReportVerdict::ACCEPTED;
}

void MmpMetrics::updateReverseDelivery(uint64_t ourPacketsReceived, uint64_t peerHighestCounter) {
  if (hasPrevReverse_) {
    const uint64_t span = satSub(peerHighestCounter, prevReverseHighest_);
    if (span > 0) {
      deliveryReverse_ = ratio(satSub(ourPacketsReceived, prevReversePackets_), span);
      etx_ = computeEtx(deliveryForward_, deliveryReverse_);
      etxTrend_.update(etx_);
    }
  }
  prevReversePackets_ = ourPacketsReceived;
  prevReverseHighest_ = peerHighestCounter;
  hasPrevReverse_ = true;
}

void MmpMetrics::resetForRekey() {
  hasPrev_ = false;
  prevPackets_ = 0;
  prevBytes_ = 0;
  prevHighest_ = 0;
  prevEcnCe_ = 0;
  prevReorder_ = 0;
  prevReportMs_.reset();
  deliveryForward_ = 1.0;
  hasPrevReverse_ = false;
  prevReversePackets_ = 0;
  prevReverseHighest_ = 0;
}

std::optional<double> MmpMetrics::srttMs() const {
  if (!srtt_.initialized()) return std::nullopt;
  return static_cast<double>(srtt_.srttUs()) / 1000.0;
}

std::optional<double> MmpMetrics::smoothedLoss() const {
  if (!lossTrend_.initialized()) return std::nullopt;
  return lossTrend_.longTerm();
}

std::optional<double> MmpMetrics::smoothedEtx() const {
  if (!etxTrend_.initialized()) return std::nullopt;
  return etxTrend_.longTerm();
}

}  // namespace fips::router::link
