// SPDX-License-Identifier: MIT
// EventQueue: virtual time for the mesh simulator. Events run in (time,
// insertion) order, so a run is a pure function of what was scheduled.
// Test code only; no trust boundary.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "router/link/link-io.h"
#include "router/mesh/mesh-io.h"

namespace fips::sim {

// The monotonic clock of every simulated node, and their wall clock (a fixed
// Unix time plus virtual seconds).
class EventQueue final : public router::link::Clock, public router::mesh::WallClock {
 public:
  explicit EventQueue(uint64_t startMs = 1'000'000) : now_(startMs) {}

  uint64_t nowMs() const override { return now_; }
  uint64_t unixSecs() const override { return 1'800'000'000 + now_ / 1000; }
  // Runs fn at virtual time atMs (now if atMs is in the past).
  void at(uint64_t atMs, std::function<void()> fn);
  void after(uint64_t delayMs, std::function<void()> fn) { at(now_ + delayMs, std::move(fn)); }
  // Runs every event due up to endMs, then sets the clock to endMs.
  void runUntil(uint64_t endMs);
  void runFor(uint64_t ms) { runUntil(now_ + ms); }
  uint64_t eventsRun() const { return eventsRun_; }

 private:
  struct Event {
    uint64_t atMs;
    uint64_t seq;
    std::function<void()> fn;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.atMs != b.atMs ? a.atMs > b.atMs : a.seq > b.seq;
    }
  };
  bool runOne(uint64_t endMs);

  uint64_t now_;
  uint64_t seq_ = 0;
  uint64_t eventsRun_ = 0;
  std::priority_queue<Event, std::vector<Event>, Later> queue_;
};

}  // namespace fips::sim
