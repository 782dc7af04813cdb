// SPDX-License-Identifier: MIT
// Process plumbing of bench-link: the counters a measured run shares between
// its forked processes (one MAP_SHARED page, not a privsep boundary: every
// process here is the same trusted benchmark), CPU pinning, loopback UDP
// sockets and the controller that samples a run. Developer tool; no external
// input.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <sys/types.h>
#include <vector>

#include "lib/unique-fd.h"

namespace fips::bench {

// Counters of one measured run. Writers publish with relaxed stores; the
// controller only needs totals at two instants.
// The two hot counters sit on their own cache lines (sender and receiver
// run on different CPUs).
struct SharedCounters {
  alignas(64) std::atomic<uint64_t> sent{0};       // frames the sending side handed on
  alignas(64) std::atomic<uint64_t> delivered{0};  // frames the receiving side counted
  alignas(64) std::atomic<uint64_t> linkDowns{0};  // links lost during the run (any node)
  std::atomic<uint64_t> rekeys{0};                 // completed rekey cutovers (receiver)
  std::atomic<uint64_t> engineDrops{0};            // frames the receiver's engine dropped
  std::atomic<uint32_t> ready{0};                  // READY_* bits
  std::atomic<uint32_t> failed{0};                 // a child hit an error (it printed why)
};
static_assert(std::atomic<uint64_t>::is_always_lock_free);

inline constexpr uint32_t READY_SENDER = 1;    // the sender is producing frames
inline constexpr uint32_t READY_WORKER_A = 2;  // node A's transport worker is bound
inline constexpr uint32_t READY_WORKER_B = 4;  // node B's transport worker is bound

// One anonymous shared page holding SharedCounters, inherited across fork().
class SharedPage {
 public:
  SharedPage();
  ~SharedPage();
  SharedPage(const SharedPage&) = delete;
  SharedPage& operator=(const SharedPage&) = delete;
  SharedCounters& counters() const { return *counters_; }

 private:
  SharedCounters* counters_;
};

// Pins the calling process to one CPU (best effort).
void pinToCpu(int cpu);

// Monotonic seconds.
double nowSecs();

// A UDP socket bound to 127.0.0.1 on an ephemeral port, with send and
// receive buffers of `bufBytes` (forced when running as root).
UniqueFd loopbackUdpSocket(int bufBytes);
uint16_t localPort(int fd);

// Forks a child that runs `body` and _exits (1 and failed=1 on an
// exception). The child is killed if the controller dies.
pid_t spawn(SharedCounters& shared, const std::function<void()>& body);

// What one window of a run saw.
struct Sample {
  bool ok = false;  // the link came up and no child failed
  double sentPerSec = 0;
  double deliveredPerSec = 0;
  double senderCpuSecs = 0;  // CPU time of the sending side's processes in the window
  double receiverCpuSecs = 0;
  double windowSecs = 0;
  uint64_t linkDowns = 0;
  uint64_t rekeys = 0;
  uint64_t engineDrops = 0;  // frames the receiving engine dropped (replay, MAC, ...)
  long peakRssKiB = 0;       // largest VmHWM among the children
};

// Waits (<= 5 s) for READY_SENDER, lets the run warm up, samples counters
// and the children's CPU time (/proc/PID/schedstat) over `windowSecs`, then
// kills and reaps the children.
Sample sampleRun(SharedCounters& shared, const std::vector<pid_t>& receiverSide,
                 const std::vector<pid_t>& senderSide, double warmupSecs, double windowSecs);

}  // namespace fips::bench
