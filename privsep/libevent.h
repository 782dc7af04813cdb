// SPDX-License-Identifier: MIT
// RAII owners for libevent handles (event_base, event), shared by every
// process's loop.
#pragma once

#include <memory>
#include <stdexcept>

#include <event2/event.h>

namespace fips::privsep {

struct EventBaseDeleter {
  void operator()(event_base* base) const { event_base_free(base); }
};
struct EventDeleter {
  void operator()(event* ev) const { event_free(ev); }
};

// Owns a struct event (event_free on destruction, which also deletes it).
using EventPtr = std::unique_ptr<event, EventDeleter>;

// Owns the process's event_base. Not copyable.
class EventBase {
 public:
  // Throws std::runtime_error if libevent cannot create a base.
  EventBase() : base_(event_base_new()) {
    if (!base_) throw std::runtime_error("event_base_new failed");
  }
  event_base* get() const { return base_.get(); }
  // Runs until loopExit() or no events remain.
  void dispatch() { event_base_dispatch(base_.get()); }
  void loopExit() { event_base_loopexit(base_.get(), nullptr); }

 private:
  std::unique_ptr<event_base, EventBaseDeleter> base_;
};

}  // namespace fips::privsep
