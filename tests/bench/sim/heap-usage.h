// SPDX-License-Identifier: MIT
// Memory figures for bench-sim: bytes the allocator has handed out and not
// taken back (glibc mallinfo2: arena bytes in use + mmapped chunks), and the
// process's peak resident set (getrusage ru_maxrss), and process CPU time. Developer tool only.
#pragma once

#include <cstddef>

namespace fips::bench {

// Heap bytes in use now (malloc'd and not freed, whatever the thread arena).
size_t heapInUse();
// Peak resident set of this process so far, bytes.
size_t peakRss();
// CPU seconds this process has used (all threads), for figures that the
// machine's load would distort as wall time.
double cpuSeconds();

}  // namespace fips::bench
