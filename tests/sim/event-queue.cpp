// SPDX-License-Identifier: MIT
// Virtual-time event queue of the mesh simulator (see event-queue.h).
#include "tests/sim/event-queue.h"

#include <algorithm>

namespace fips::sim {

void EventQueue::at(uint64_t atMs, std::function<void()> fn) {
  queue_.push(Event{std::max(atMs, now_), seq_++, std::move(fn)});
}

bool EventQueue::runOne(uint64_t endMs) {
  if (queue_.empty() || queue_.top().atMs > endMs) return false;
  // Move the callable out before popping: it may schedule more events.
  Event event = std::move(const_cast<Event&>(queue_.top()));  // NOLINT: pop follows at once
  queue_.pop();
  now_ = event.atMs;
  ++eventsRun_;
  event.fn();
  return true;
}

void EventQueue::runUntil(uint64_t endMs) {
  while (runOne(endMs)) {
  }
  now_ = std::max(now_, endMs);
}

}  // namespace fips::sim
