// SPDX-License-Identifier: MIT
// The sending side of link-layer MMP (see mmp-sender.h). Runs in fips-router.
#include "router/link/mmp-sender.h"

#include <algorithm>
#include <limits>

namespace fips::router::link {

uint64_t mmpReportIntervalMs(int64_t srttUs, uint32_t multiplier, uint32_t sampleCount,
                             const MmpSchedule& schedule) {
  const uint64_t floor =
      sampleCount <= MMP_COLD_START_SAMPLES ? schedule.coldStartFloorMs : schedule.minMs;
  const uint64_t ms = static_cast<uint64_t>(srttUs) * multiplier / 1000;
  return std::clamp(ms, floor, std::max(floor, schedule.maxMs));
}

void MmpSender::recordSent(uint64_t counter, uint32_t timestampMs, uint64_t bytes) {
  if (!intervalHasData_) {
    intervalStartCounter_ = counter;
    intervalStartTimestamp_ = timestampMs;
    intervalHasData_ = true;
  }
  lastCounter_ = counter;
  lastTimestamp_ = timestampMs;
  const uint64_t room = std::numeric_limits<uint32_t>::max() - intervalBytes_;
  intervalBytes_ += static_cast<uint32_t>(std::min(bytes, room));
  ++packets_;
  bytes_ += bytes;
}

bool MmpSender::reportDue(uint64_t nowMs) const {
  if (!intervalHasData_) return false;
  if (!lastReportMs_) return true;
  const uint64_t effective = intervalMs_ << std::min<uint32_t>(sendFailures_, 5);
  return nowMs - *lastReportMs_ >= effective;
}

std::optional<fmp::SenderReport> MmpSender::buildReport(uint64_t nowMs) {
  if (!intervalHasData_) return std::nullopt;
  const fmp::SenderReport report{.intervalStartCounter = intervalStartCounter_,
                                 .intervalEndCounter = lastCounter_,
                                 .intervalStartTimestamp = intervalStartTimestamp_,
                                 .intervalEndTimestamp = lastTimestamp_,
                                 .intervalBytesSent = intervalBytes_,
                                 .cumulativePacketsSent = packets_,
                                 .cumulativeBytesSent = bytes_};
  intervalHasData_ = false;
  intervalBytes_ = 0;
  lastReportMs_ = nowMs;
  return report;
}

void MmpSender::updateIntervalFromSrtt(int64_t srttUs) {
  if (srttSamples_ < std::numeric_limits<uint32_t>::max()) ++srttSamples_;
  if (srttUs <= 0) return;
  intervalMs_ = mmpReportIntervalMs(srttUs, 2, srttSamples_, schedule_);
}

}  // namespace fips::router::link
