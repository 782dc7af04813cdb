// SPDX-License-Identifier: MIT
// The MMP estimators (see mmp-estimators.h). Runs in fips-router.
#include "router/link/mmp-estimators.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace fips::router::link {

namespace {
constexpr double EWMA_SHORT_ALPHA = 0.25;
constexpr double EWMA_LONG_ALPHA = 1.0 / 32.0;
constexpr int64_t DELTA_LIMIT = int64_t{1} << 40U;  // µs; far beyond any real spacing
}  // namespace

void JitterEstimator::update(int64_t transitDeltaUs) {
  const int64_t d = std::clamp(transitDeltaUs, -DELTA_LIMIT, DELTA_LIMIT);
  q4_ += std::abs(d) - (q4_ >> 4U);
}

uint32_t JitterEstimator::jitterUs() const {
  return static_cast<uint32_t>(std::min<int64_t>(q4_ >> 4U, std::numeric_limits<uint32_t>::max()));
}

void SrttEstimator::update(int64_t rttUs) {
  if (!initialized_) {
    srttUs_ = rttUs;
    rttvarUs_ = rttUs / 2;
    initialized_ = true;
    return;
  }
  const int64_t err = std::abs(srttUs_ - rttUs);
  rttvarUs_ = rttvarUs_ - (rttvarUs_ >> 2U) + (err >> 2U);
  srttUs_ = srttUs_ - (srttUs_ >> 3U) + (rttUs >> 3U);
}

void DualEwma::update(double sample) {
  if (!initialized_) {
    short_ = sample;
    long_ = sample;
    initialized_ = true;
    return;
  }
  short_ += EWMA_SHORT_ALPHA * (sample - short_);
  long_ += EWMA_LONG_ALPHA * (sample - long_);
}

Trend trendOf(const DualEwma& ewma) {
  const double s = ewma.shortTerm();
  const double l = ewma.longTerm();
  if (!std::isfinite(s) || !std::isfinite(l) || l == 0.0) return Trend::STABLE;
  const double ratio = s / l;
  if (ratio > 1.05) return Trend::RISING;
  if (ratio < 0.95) return Trend::FALLING;
  return Trend::STABLE;
}

const char* toString(Trend trend) {
  switch (trend) {
    case Trend::RISING:
      return "rising";
    case Trend::FALLING:
      return "falling";
    case Trend::STABLE:
      break;
  }
  return "stable";
}

void OwdTrend::push(uint32_t seq, int64_t owdUs) {
  if (capacity_ == 0) return;
  if (samples_.size() == capacity_) samples_.pop_front();
  samples_.emplace_back(seq, owdUs);
}

int32_t OwdTrend::trendUsPerSec() const {
  const size_t n = samples_.size();
  if (n < 2) return 0;
  double sumX = 0.0;
  double sumY = 0.0;
  for (const auto& [x, y] : samples_) {
    sumX += static_cast<double>(x);
    sumY += static_cast<double>(y);
  }
  const double meanX = sumX / static_cast<double>(n);
  const double meanY = sumY / static_cast<double>(n);
  double num = 0.0;
  double den = 0.0;
  for (const auto& [x, y] : samples_) {
    const double dx = static_cast<double>(x) - meanX;
    num += dx * (static_cast<double>(y) - meanY);
    den += dx * dx;
  }
  if (den < std::numeric_limits<double>::epsilon()) return 0;
  const double slope = num / den * 1000.0;
  // Saturate as the reference's float-to-int cast does.
  if (std::isnan(slope)) return 0;
  constexpr double LO = std::numeric_limits<int32_t>::min();
  constexpr double HI = std::numeric_limits<int32_t>::max();
  return static_cast<int32_t>(std::clamp(slope, LO, HI));
}

double computeEtx(double deliveryForward, double deliveryReverse) {
  const double product = deliveryForward * deliveryReverse;
  if (product <= 0.0) return 100.0;
  return std::clamp(1.0 / product, 1.0, 100.0);
}

}  // namespace fips::router::link
