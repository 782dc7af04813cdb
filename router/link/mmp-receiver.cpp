// SPDX-License-Identifier: MIT
// The receiving side of link-layer MMP (see mmp-receiver.h). Runs in
// fips-router on authenticated frames whose counters and timestamps are the
// peer's choice.
#include "router/link/mmp-receiver.h"

#include <algorithm>
#include <limits>

namespace fips::router::link {

namespace {

uint16_t sat16(uint64_t v) {
  return static_cast<uint16_t>(std::min<uint64_t>(v, std::numeric_limits<uint16_t>::max()));
}

uint32_t addSat32(uint32_t a, uint64_t b) {
  return static_cast<uint32_t>(std::min<uint64_t>(uint64_t{a} + std::min<uint64_t>(b, UINT32_MAX),
                                                  std::numeric_limits<uint32_t>::max()));
}

}  // namespace

void MmpReceiver::GapTracker::observe(uint64_t counter) {
  if (!expectedNext) {
    expectedNext = counter + 1;
    return;
  }
  if (counter > *expectedNext) {
    const uint64_t gap = counter - *expectedNext;
    if (inBurst) {
      burstLen = sat16(uint64_t{burstLen} + gap);
    } else {
      inBurst = true;
      burstLen = sat16(gap);
      if (bursts < std::numeric_limits<uint32_t>::max()) ++bursts;
    }
  } else if (inBurst) {
    finishBurst();
  }
  if (counter >= *expectedNext) expectedNext = counter + 1;
}

void MmpReceiver::GapTracker::finishBurst() {
  if (!inBurst) return;
  maxBurst = std::max(maxBurst, burstLen);
  totalBurst += burstLen;
  inBurst = false;
  burstLen = 0;
}

void MmpReceiver::recordReceived(uint64_t counter, uint32_t senderTimestampMs, uint64_t bytes,
                                 bool ce, uint64_t nowMs) {
  intervalHasData_ = true;
  ++packets_;
  bytes_ += bytes;
  intervalPackets_ = addSat32(intervalPackets_, 1);
  intervalBytes_ = addSat32(intervalBytes_, bytes);
  if (counter < highest_) {
    ++reorder_;
  } else {
    highest_ = counter;
  }
  const uint32_t burstsBefore = gaps_.bursts;
  gaps_.observe(counter);
  lossBursts_ += gaps_.bursts - burstsBefore;
  if (ce && ecnCe_ < std::numeric_limits<uint32_t>::max()) ++ecnCe_;

  const int64_t senderUs = int64_t{senderTimestampMs} * 1000;
  const bool inGrace = jitterGraceUntilMs_ && nowMs < *jitterGraceUntilMs_;
  if (!inGrace) {
    jitterGraceUntilMs_.reset();
    if (lastRecvMs_) {
      const int64_t recvDeltaUs = static_cast<int64_t>(nowMs - *lastRecvMs_) * 1000;
      const int64_t sendDeltaUs = senderUs - int64_t{lastSenderTimestamp_} * 1000;
      jitter_.update(recvDeltaUs - sendDeltaUs);
    }
  }
  // The reference's OWD sample: receive offset from the previous frame minus
  // the sender's absolute timestamp; only its slope is reported.
  const uint64_t base = lastRecvMs_.value_or(nowMs);
  const int64_t owdUs = static_cast<int64_t>(nowMs - base) * 1000 - senderUs;
  ++owdSeq_;
  owd_.push(owdSeq_, owdUs);
  lastSenderTimestamp_ = senderTimestampMs;
  lastRecvMs_ = nowMs;
}

void MmpReceiver::recordTrafficOnly(uint64_t bytes) {
  ++packets_;
  bytes_ += bytes;
  intervalPackets_ = addSat32(intervalPackets_, 1);
  intervalBytes_ = addSat32(intervalBytes_, bytes);
}

bool MmpReceiver::reportDue(uint64_t nowMs) const {
  if (!intervalHasData_) return false;
  return !lastReportMs_ || nowMs - *lastReportMs_ >= intervalMs_;
}

std::optional<fmp::ReceiverReport> MmpReceiver::buildReport(uint64_t nowMs) {
  if (!intervalHasData_) return std::nullopt;
  uint32_t echo = 0;
  uint16_t dwell = 0;
  if (lastRecvMs_) {
    const uint64_t dwellMs = nowMs - *lastRecvMs_;
    if (dwellMs > std::numeric_limits<uint16_t>::max()) {
      dwell = std::numeric_limits<uint16_t>::max();
    } else {
      echo = lastSenderTimestamp_;
      dwell = static_cast<uint16_t>(dwellMs);
    }
  }
  gaps_.finishBurst();
  uint16_t meanBurst = 0;
  if (gaps_.bursts > 0) {
    const double mean = static_cast<double>(gaps_.totalBurst) / gaps_.bursts;
    meanBurst = static_cast<uint16_t>(std::min(mean * 256.0, 65535.0));
  }
  const fmp::ReceiverReport report{.highestCounter = highest_,
                                   .cumulativePacketsRecv = packets_,
                                   .cumulativeBytesRecv = bytes_,
                                   .timestampEcho = echo,
                                   .dwellTime = dwell,
                                   .maxBurstLoss = gaps_.maxBurst,
                                   .meanBurstLoss = meanBurst,
                                   .jitter = jitter_.jitterUs(),
                                   .ecnCeCount = ecnCe_,
                                   .owdTrend = owd_.trendUsPerSec(),
                                   .burstLossCount = gaps_.bursts,
                                   .cumulativeReorderCount = static_cast<uint32_t>(reorder_),
                                   .intervalPacketsRecv = intervalPackets_,
                                   .intervalBytesRecv = intervalBytes_};
  gaps_.bursts = 0;
  gaps_.maxBurst = 0;
  gaps_.totalBurst = 0;
  intervalPackets_ = 0;
  intervalBytes_ = 0;
  intervalHasData_ = false;
  lastReportMs_ = nowMs;
  return report;
}

void MmpReceiver::updateIntervalFromSrtt(int64_t srttUs) {
  if (srttSamples_ < std::numeric_limits<uint32_t>::max()) ++srttSamples_;
  if (srttUs <= 0) return;
  intervalMs_ = mmpReportIntervalMs(srttUs, 1, srttSamples_, schedule_);
}

void MmpReceiver::resetForRekey(uint64_t nowMs) {
  highest_ = 0;
  reorder_ = 0;
  gaps_ = GapTracker{};
  intervalPackets_ = 0;
  intervalBytes_ = 0;
  jitter_ = JitterEstimator{};
  owd_.clear();
  owdSeq_ = 0;
  lastSenderTimestamp_ = 0;
  lastRecvMs_.reset();
  jitterGraceUntilMs_ = nowMs + MMP_REKEY_JITTER_GRACE_MS;
  ecnCe_ = 0;
  intervalHasData_ = false;
}

}  // namespace fips::router::link
