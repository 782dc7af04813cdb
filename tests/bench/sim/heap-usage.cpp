// SPDX-License-Identifier: MIT
// Memory figures for bench-sim (see heap-usage.h).
#include "tests/bench/sim/heap-usage.h"

#include <ctime>
#include <malloc.h>
#include <sys/resource.h>

namespace fips::bench {

size_t heapInUse() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

size_t peakRss() {
  struct rusage usage {};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<size_t>(usage.ru_maxrss) * 1024;  // ru_maxrss is in KiB on Linux
}

double cpuSeconds() {
  timespec ts{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

}  // namespace fips::bench
