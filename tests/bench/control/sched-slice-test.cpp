// SPDX-License-Identifier: MIT
// Tests of bench-control's sched-slice: the slice is set on the calling thread
// only, read back as set, keeps the thread's nice value, and a thread of a
// class without slices is left alone. Each case runs on a thread of its own
// so that the test runner keeps its defaults.
#include "tests/bench/control/sched-slice.h"

#include <cerrno>
#include <cstdio>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

#include <doctest/doctest.h>

namespace fips::bench {

namespace {

// sched_getattr of thread `tid` (0: the caller): {policy, slice ns}.
struct Attr {
  uint32_t policy = 0;
  uint64_t sliceNs = 0;
};

Attr readAttr(pid_t tid) {
  struct {
    uint32_t size, policy;
    uint64_t flags;
    int32_t nice;
    uint32_t priority;
    uint64_t runtime, deadline, period;
    uint32_t utilMin, utilMax;
  } attr{};
  REQUIRE(::syscall(SYS_sched_getattr, tid, &attr, sizeof(attr), 0) == 0);
  return {attr.policy, attr.runtime};
}

// Linux 6.12 or later: a normal thread may have a slice of its own.
bool kernelHasSlices() {
  utsname u{};
  REQUIRE(::uname(&u) == 0);
  int major = 0, minor = 0;
  REQUIRE(std::sscanf(u.release, "%d.%d", &major, &minor) == 2);
  return major > 6 || (major == 6 && minor >= 12);
}

}  // namespace

TEST_CASE("interactive slice: set on the calling thread only, nice kept") {
  const pid_t runner = static_cast<pid_t>(::gettid());
  const uint64_t runnerSlice = readAttr(runner).sliceNs;
  SliceResult result;
  Attr after;
  int nice = 0;
  std::thread([&] {
    REQUIRE(::setpriority(PRIO_PROCESS, 0, 3) == 0);  // this thread only (Linux)
    result = requestSlice(MIN_SLICE_NS);
    after = readAttr(0);
    errno = 0;
    nice = ::getpriority(PRIO_PROCESS, 0);
  }).join();
  CHECK(result.sliceNs == after.sliceNs);
  CHECK(after.policy == SCHED_OTHER);
  CHECK(nice == 3);
  CHECK(readAttr(runner).sliceNs == runnerSlice);
  if (kernelHasSlices()) {
    CHECK(result.why == "");
    CHECK(after.sliceNs == MIN_SLICE_NS);
  }
}

TEST_CASE("interactive slice: a request below the kernel's minimum says what it got") {
  if (!kernelHasSlices()) return;
  SliceResult result;
  std::thread([&] { result = requestSlice(1'000); }).join();
  CHECK(result.sliceNs == MIN_SLICE_NS);  // the kernel's 100 us floor
  CHECK(result.why.find("the kernel keeps a slice of 100000 ns") == 0);
}

TEST_CASE("interactive slice: a SCHED_IDLE thread is left alone") {
  SliceResult result;
  uint32_t policy = 0;
  std::thread([&] {
    sched_param param{};
    REQUIRE(::sched_setscheduler(0, SCHED_IDLE, &param) == 0);  // lowering needs no privilege
    result = requestSlice(MIN_SLICE_NS);
    policy = readAttr(0).policy;
  }).join();
  CHECK(policy == SCHED_IDLE);
  CHECK(result.why == "policy 5 has no slice of its own");
}

}  // namespace fips::bench
