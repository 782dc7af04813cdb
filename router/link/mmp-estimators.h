// SPDX-License-Identifier: MIT
// The MMP estimators (FIPS spec 02 §9.3; the reference's
// src/proto/mmp/algorithms.rs): RFC 3550 jitter, RFC 6298 SRTT/RTTVAR, the
// dual EWMA behind the trend labels, the one-way-delay trend and ETX. Pure
// arithmetic on values the link engine measured; runs in fips-router. Inputs
// derived from peer timestamps are untrusted and only ever saturate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <utility>

namespace fips::router::link {

// Interarrival jitter, RFC 3550 §6.4.1 in Q4 fixed point: J += |D| - J/16.
class JitterEstimator {
 public:
  // transitDeltaUs: (receive spacing - send spacing) of two frames, µs.
  void update(int64_t transitDeltaUs);
  uint32_t jitterUs() const;

 private:
  int64_t q4_ = 0;
};

// Smoothed RTT per RFC 6298 (alpha 1/8, beta 1/4, integer shifts); the first
// sample sets SRTT = R and RTTVAR = R/2.
class SrttEstimator {
 public:
  void update(int64_t rttUs);
  int64_t srttUs() const { return srttUs_; }
  int64_t rttvarUs() const { return rttvarUs_; }
  bool initialized() const { return initialized_; }

 private:
  int64_t srttUs_ = 0;
  int64_t rttvarUs_ = 0;
  bool initialized_ = false;
};

// Two EWMAs of one signal: short-term alpha 1/4, long-term alpha 1/32; the
// first sample seeds both.
class DualEwma {
 public:
  void update(double sample);
  double shortTerm() const { return short_; }
  double longTerm() const { return long_; }
  bool initialized() const { return initialized_; }

 private:
  double short_ = 0.0;
  double long_ = 0.0;
  bool initialized_ = false;
};

// Direction of a DualEwma: short/long above 1.05 rising, below 0.95 falling.
enum class Trend : uint8_t { STABLE, RISING, FALLING };
Trend trendOf(const DualEwma& ewma);
// "stable", "rising", "falling" (the reference's show_mmp labels).
const char* toString(Trend trend);

// One-way-delay trend: least-squares slope over the last `capacity`
// (sequence, owd µs) samples, × 1000, saturated to int32 (owd_trend).
class OwdTrend {
 public:
  explicit OwdTrend(size_t capacity) : capacity_(capacity) {}
  void push(uint32_t seq, int64_t owdUs);
  void clear() { samples_.clear(); }
  int32_t trendUsPerSec() const;

 private:
  std::deque<std::pair<uint32_t, int64_t>> samples_;
  size_t capacity_;
};

// ETX = 1 / (forward delivery × reverse delivery), clamped to [1, 100]; 100
// when the product is not positive (spec 02 §9.3).
double computeEtx(double deliveryForward, double deliveryReverse);

}  // namespace fips::router::link
