// SPDX-License-Identifier: MIT
// An EEVDF time slice for the calling thread (see sched-slice.h).
#include "tests/bench/control/sched-slice.h"

#include <cerrno>
#include <cstring>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fmt/format.h>

namespace fips::bench {

namespace {

// The kernel's struct sched_attr (include/uapi/linux/sched/types.h, the
// 56-byte SCHED_ATTR_SIZE_VER1 layout); glibc before 2.41 has neither it nor
// the sched_getattr/sched_setattr wrappers, and <linux/sched/types.h>
// collides with glibc's struct sched_param.
struct KernelSchedAttr {
  uint32_t size;
  uint32_t policy;
  uint64_t flags;
  int32_t nice;
  uint32_t priority;
  uint64_t runtime;  // SCHED_OTHER/SCHED_BATCH: the requested slice, ns
  uint64_t deadline;
  uint64_t period;
  uint32_t utilMin;
  uint32_t utilMax;
};
static_assert(sizeof(KernelSchedAttr) == 56);

// pid 0: the calling thread.
bool getAttr(KernelSchedAttr& attr) {
  attr = KernelSchedAttr{};
  return ::syscall(SYS_sched_getattr, 0, &attr, sizeof(attr), 0) == 0;
}

}  // namespace

SliceResult requestSlice(uint64_t sliceNs) {
  KernelSchedAttr attr;
  if (!getAttr(attr)) return {0, fmt::format("sched_getattr: {}", std::strerror(errno))};
  if (attr.policy != SCHED_OTHER && attr.policy != SCHED_BATCH)
    return {attr.runtime, fmt::format("policy {} has no slice of its own", attr.policy)};
  attr.size = sizeof(attr);
  attr.runtime = sliceNs;
  if (::syscall(SYS_sched_setattr, 0, &attr, 0) != 0)
    return {0, fmt::format("sched_setattr: {}", std::strerror(errno))};
  KernelSchedAttr now;
  if (!getAttr(now)) return {0, fmt::format("sched_getattr: {}", std::strerror(errno))};
  if (now.runtime != sliceNs)
    return {now.runtime, fmt::format("the kernel keeps a slice of {} ns (it clamps a request "
                                     "to 100 us-100 ms; before Linux 6.12 it ignores it)",
                                     now.runtime)};
  return {now.runtime, ""};
}

}  // namespace fips::bench
