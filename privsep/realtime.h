// SPDX-License-Identifier: MIT
// Real-time scheduling for one latency-critical thread of a process that
// drops its privileges (docs/design/privsep.md "Control thread priority").
// A thread's policy is inherited by the threads it creates and survives the
// drop, while raising it afterwards needs CAP_SYS_NICE or RLIMIT_RTPRIO. So
// the main thread enters SCHED_FIFO before the drop, creates the one thread
// that keeps it, then leaves (lowering is always allowed). fips-router does
// this for its control thread.
#pragma once

#include <string>

namespace fips::privsep {

// Switches the calling thread (not the process) to SCHED_FIFO at `priority`
// (1-99). Returns "" on success, else why not: EPERM without CAP_SYS_NICE
// and with RLIMIT_RTPRIO below `priority`, under systemd's
// RestrictRealtime=, or in an RT cgroup with no budget. A thread running it
// must block between bursts of short work: the kernel's RT throttling
// (sched_rt_runtime_us) is the only bound on a runaway loop.
std::string enterRealtime(int priority);

// Switches the calling thread back to SCHED_OTHER, nice 0. Returns "" on
// success, else why not.
std::string leaveRealtime();

}  // namespace fips::privsep
