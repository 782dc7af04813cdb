// SPDX-License-Identifier: MIT
// Real-time scheduling of one thread (see realtime.h).
#include "privsep/realtime.h"

#include <cerrno>
#include <cstring>
#include <sched.h>

#include <fmt/format.h>

namespace fips::privsep {

namespace {

// pid 0 names the calling thread: the other threads keep their policy.
std::string setPolicy(int policy, int priority, const char* name) {
  sched_param param{};
  param.sched_priority = priority;
  if (::sched_setscheduler(0, policy, &param) != 0)
    return fmt::format("sched_setscheduler({}, {}): {}", name, priority, std::strerror(errno));
  return "";
}

}  // namespace

std::string enterRealtime(int priority) {
  if (priority < 1 || priority > 99) return fmt::format("priority {} is not 1-99", priority);
  return setPolicy(SCHED_FIFO, priority, "SCHED_FIFO");
}

std::string leaveRealtime() {
  return setPolicy(SCHED_OTHER, 0, "SCHED_OTHER");
}

}  // namespace fips::privsep
