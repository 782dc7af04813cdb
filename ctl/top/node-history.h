// SPDX-License-Identifier: MIT
// Client-side history for fipstop's sparklines and Graphs tab: one ring of
// samples per node metric, one sample per poll (every -r seconds). The
// daemon serves no history yet; rates are differences of its monotonic
// counters between two polls. Runs in fipstop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ctl/top/answers.h"

namespace fips::ctl::top {

// The last `capacity` samples, oldest first.
class HistoryRing {
 public:
  explicit HistoryRing(size_t capacity) : capacity_(capacity) {}
  void push(double value);
  std::span<const double> values() const { return values_; }
  bool empty() const { return values_.empty(); }
  double last() const { return values_.empty() ? 0 : values_.back(); }

 private:
  size_t capacity_;
  std::vector<double> values_;
};

// One metric's history; `unit` is "" (a count), "B/s" or "pkt/s".
struct Series {
  std::string name;
  std::string unit;
  HistoryRing ring;
};

class NodeHistory {
 public:
  // Samples kept per series (20 min at the default 2 s refresh).
  static constexpr size_t CAPACITY = 600;

  NodeHistory();

  // Records one poll's answers, `elapsedMs` after the previous recorded
  // poll: peer and link counts (status), tree depth (tree), and bytes and
  // packets per second in and out summed over the transports. A rate needs
  // two polls; a counter that went backwards (daemon restarted) skips one.
  void record(const Answers& answers, uint64_t elapsedMs);

  // Series in display order: peers, links, tree depth, bytes in, bytes
  // out, packets in, packets out.
  const std::vector<Series>& series() const { return series_; }
  // The series named `name`; nullptr when there is none.
  const Series* find(const std::string& name) const;

 private:
  struct Totals {
    uint64_t bytesIn = 0, bytesOut = 0, packetsIn = 0, packetsOut = 0;
  };
  std::vector<Series> series_;
  bool haveTotals_ = false;
  Totals totals_;
};

}  // namespace fips::ctl::top
