// SPDX-License-Identifier: MIT
// Tests of privsep/realtime: the policy belongs to the calling thread, is
// inherited by the threads it creates, and can always be left.
#include "privsep/realtime.h"

#include <sched.h>
#include <thread>

#include <doctest/doctest.h>

namespace fips::privsep {

TEST_CASE("realtime: a priority outside 1-99 is refused without a system call") {
  CHECK(enterRealtime(0) == "priority 0 is not 1-99");
  CHECK(enterRealtime(100) == "priority 100 is not 1-99");
  CHECK(::sched_getscheduler(0) == SCHED_OTHER);
}

TEST_CASE("realtime: only the calling thread and its new threads are real-time") {
  std::string why;
  int inherited = -1, left = -1, entered = -1;
  std::thread([&] {
    why = enterRealtime(1);
    if (!why.empty()) return;
    entered = ::sched_getscheduler(0);
    std::thread([&] { inherited = ::sched_getscheduler(0); }).join();
    CHECK(leaveRealtime() == "");
    left = ::sched_getscheduler(0);
  }).join();
  CHECK(::sched_getscheduler(0) == SCHED_OTHER);
  if (!why.empty()) {
    // No CAP_SYS_NICE and no RLIMIT_RTPRIO here: the reason names the call.
    CHECK(why.find("sched_setscheduler(SCHED_FIFO, 1)") == 0);
    return;
  }
  CHECK(entered == SCHED_FIFO);
  CHECK(inherited == SCHED_FIFO);
  CHECK(left == SCHED_OTHER);
}

}  // namespace fips::privsep
