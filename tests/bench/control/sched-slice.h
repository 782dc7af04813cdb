// SPDX-License-Identifier: MIT
// bench-control's --slice-us: an EEVDF time slice of its own for the
// calling thread. Linux 6.12+ lets a normal thread ask for one
// (sched_attr.sched_runtime, clamped to 100 us-100 ms) without privilege; a
// shorter slice means an earlier virtual deadline, not a larger share of
// the CPU. The bench asks with one to show whether it shortens a normal
// client's wait for a CPU under load (measured: it does not; tests/bench/
// README.md "bench-control"), so fipsctl does not ask for one.
#pragma once

#include <cstdint>
#include <string>

namespace fips::bench {

// The kernel's shortest slice (ns).
inline constexpr uint64_t MIN_SLICE_NS = 100'000;

// What requestSlice did: the slice the kernel reports for the calling thread
// afterwards (ns; its default, e.g. 1.4 ms on 2 CPUs, when the request did
// not take; 0 before Linux 6.12, which has no per-thread slice) and why
// not, if it did not.
struct SliceResult {
  uint64_t sliceNs = 0;
  std::string why;  // "" when sliceNs is the requested slice
};

// Asks for a slice of `sliceNs` for the calling thread (not the process),
// keeping its policy and nice value; reads it back with sched_getattr to
// tell whether it took. Leaves a real-time or SCHED_IDLE thread alone (a
// slice applies to SCHED_OTHER and SCHED_BATCH only). Never fails the
// caller: a refusal only means the default slice.
SliceResult requestSlice(uint64_t sliceNs);

}  // namespace fips::bench
