// SPDX-License-Identifier: MIT
// The node's metric history for fipstop's sparklines and Graphs tab, as
// the daemon's stats history serves it (control.capnp statsAllHistory:
// 1 s or 1 min samples, oldest first, NaN for a gap). Runs in fipstop;
// the samples are the daemon's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "control.capnp.h"
#include "ctl/top/top-view.h"

namespace fips::ctl::top {

// One metric's samples; `unit` as the daemon names it ("nodes",
// "bytes/s", "fraction", ...).
struct Series {
  std::string metric;
  std::string unit;
  uint32_t granularitySecs = 1;
  std::vector<double> values;
};

class NodeHistory {
 public:
  // Replaces the history with the daemon's answer for `window`.
  void set(capnp::List<schema::StatsSeries>::Reader series, const HistoryWindow& window);
  // The daemon served no history: why (one line).
  void unavailable(std::string reason);

  const std::vector<Series>& series() const { return series_; }
  // The series of `metric`; nullptr when there is none.
  const Series* find(const std::string& metric) const;
  // "" when the last query answered, else why not.
  const std::string& unavailableReason() const { return reason_; }
  // The window the series cover ("" before the first answer).
  const std::string& windowLabel() const { return window_; }

 private:
  std::vector<Series> series_;
  std::string reason_;
  std::string window_;
};

}  // namespace fips::ctl::top
