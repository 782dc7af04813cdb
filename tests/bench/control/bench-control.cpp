// SPDX-License-Identifier: MIT
// bench-control: latency of the control socket's read queries (`show status`
// and `show peers`, control.capnp status/peers) against a running fips node,
// as percentiles. Developer tool run by control-bench.sh (issue #7); the
// socket's answers are only timed, not trusted for anything else.
//
//   bench-control SOCKET [QUERIES] [LABEL] [--server-schedstat PATH]
//                 [--gap-us N] [--slice-us N]
//
// For each query kind: QUERIES calls on one connection (the RPC round trip),
// then QUERIES / 10 calls each on a fresh connection (what one fipsctl
// invocation pays, without process start-up). Prints one line per kind and
// mode: label, kind, mode, n, p50, p99 and max in microseconds, then where
// the time went: the mean and the slowest 1 %'s mean latency, and how much
// of it this client and the server thread spent runnable but waiting for a
// CPU (run_delay of /proc/thread-self/schedstat and of the server thread's
// schedstat file, PATH: e.g. /proc/PID/task/TID/schedstat).
//
// --gap-us N sleeps N us after each query (an operator's pace rather than
// back to back). --slice-us N asks the kernel for an EEVDF slice of N us
// for the client's thread (sched-slice.h; fipsctl does not) and says which
// slice the kernel gave it.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

#include "ctl/control-client.h"
#include "tests/bench/control/sched-slice.h"

namespace {

using fips::ctl::ControlClient;
using Clock = std::chrono::steady_clock;

enum class Kind { STATUS, PEERS };

const char* name(Kind kind) {
  return kind == Kind::STATUS ? "show status" : "show peers";
}

// One query on `client`, waiting for its answer; the answer is checked to be
// non-empty so that the call cannot be optimised into nothing.
void query(ControlClient& client, Kind kind) {
  if (kind == Kind::STATUS) {
    auto response = client.wait(client.control().statusRequest().send());
    if (response.getStatus().getNpub().size() == 0) throw std::runtime_error("empty status");
  } else {
    auto response = client.wait(client.control().peersRequest().send());
    static_cast<void>(response.getPeers().size());
  }
}

// A thread's run_delay (ns spent runnable but waiting for a CPU), read from
// its /proc schedstat file (second field) with pread on an open fd.
class RunDelay {
 public:
  explicit RunDelay(const char* path) : fd_(::open(path, O_RDONLY | O_CLOEXEC)) {}
  ~RunDelay() {
    if (fd_ >= 0) ::close(fd_);
  }
  RunDelay(const RunDelay&) = delete;
  RunDelay& operator=(const RunDelay&) = delete;
  bool ok() const { return fd_ >= 0; }
  // Nanoseconds, or 0 when the file cannot be read.
  uint64_t ns() const {
    char buf[128];
    const ssize_t n = ::pread(fd_, buf, sizeof(buf) - 1, 0);
    if (n <= 0) return 0;
    buf[n] = 0;
    char* end = nullptr;
    std::strtoull(buf, &end, 10);
    return std::strtoull(end, nullptr, 10);
  }

 private:
  int fd_;
};

struct Sample {
  double us;        // the query's latency
  double clientUs;  // this thread's wait for a CPU during it
  double serverUs;  // the server thread's wait for a CPU during it
};

// Microseconds since `start`.
double micros(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// The p-th percentile (0..100) of sorted samples, nearest rank.
double percentile(const std::vector<Sample>& sorted, double p) {
  const auto rank = static_cast<size_t>(p / 100.0 * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(rank, sorted.size() - 1)].us;
}

// One line: p50/p99/max, then where the slowest 1 % (at least one query)
// and the mean query waited for a CPU: this client and the server thread.
void report(const std::string& label, Kind kind, const char* mode, std::vector<Sample> samples) {
  std::sort(samples.begin(), samples.end(),
            [](const Sample& a, const Sample& b) { return a.us < b.us; });
  const size_t tail = std::max<size_t>(1, samples.size() / 100);
  Sample slow{0, 0, 0};
  for (size_t i = samples.size() - tail; i < samples.size(); ++i) {
    slow.us += samples[i].us / static_cast<double>(tail);
    slow.clientUs += samples[i].clientUs / static_cast<double>(tail);
    slow.serverUs += samples[i].serverUs / static_cast<double>(tail);
  }
  Sample all{0, 0, 0};
  for (const Sample& s : samples) {
    all.us += s.us / static_cast<double>(samples.size());
    all.clientUs += s.clientUs / static_cast<double>(samples.size());
    all.serverUs += s.serverUs / static_cast<double>(samples.size());
  }
  std::printf(
      "%-8s %-12s %-16s n=%-5zu p50 %8.1f us  p99 %8.1f us  max %8.1f us"
      "  | mean %6.1f: client wait %5.1f server wait %5.1f"
      "  | slowest 1%% %7.1f: client wait %6.1f server wait %6.1f\n",
      label.c_str(), name(kind), mode, samples.size(), percentile(samples, 50),
      percentile(samples, 99), samples.back().us, all.us, all.clientUs, all.serverUs, slow.us,
      slow.clientUs, slow.serverUs);
}

// Times `run` and the run_delay of this thread and of the server thread.
template <typename Run>
Sample timed(const RunDelay& self, const RunDelay* server, Run&& run) {
  const uint64_t s0 = server ? server->ns() : 0;
  const uint64_t c0 = self.ns();
  const auto start = Clock::now();
  run();
  const double us = micros(start);
  const uint64_t c1 = self.ns();
  const uint64_t s1 = server ? server->ns() : 0;
  return Sample{us, static_cast<double>(c1 - c0) / 1000.0, static_cast<double>(s1 - s0) / 1000.0};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> positional;
  std::string serverPath;
  long gapUs = 0;
  long sliceUs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--server-schedstat" && i + 1 < argc) {
      serverPath = argv[++i];
    } else if (arg == "--gap-us" && i + 1 < argc) {
      gapUs = std::strtol(argv[++i], nullptr, 10);
    } else if (arg == "--slice-us" && i + 1 < argc) {
      sliceUs = std::strtol(argv[++i], nullptr, 10);
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.empty() || positional.size() > 3 || gapUs < 0 || sliceUs < 0) {
    std::fprintf(stderr,
                 "usage: bench-control SOCKET [QUERIES] [LABEL] [--server-schedstat PATH] "
                 "[--gap-us N] [--slice-us N]\n");
    return 2;
  }
  const std::string socket = positional[0];
  const size_t queries =
      positional.size() > 1 ? std::strtoul(positional[1].c_str(), nullptr, 10) : 2000;
  const std::string label = positional.size() > 2 ? positional[2] : "run";
  if (queries < 10) {
    std::fprintf(stderr, "bench-control: QUERIES must be at least 10\n");
    return 2;
  }
  const RunDelay self("/proc/thread-self/schedstat");
  std::unique_ptr<RunDelay> server;
  if (!serverPath.empty()) server = std::make_unique<RunDelay>(serverPath.c_str());
  if (!self.ok() || (server && !server->ok())) {
    std::fprintf(stderr, "bench-control: cannot read a schedstat file\n");
    return 1;
  }
  if (sliceUs > 0) {
    const auto taken = fips::bench::requestSlice(static_cast<uint64_t>(sliceUs) * 1000);
    std::printf("%-8s client slice %.1f us%s%s\n", label.c_str(),
                static_cast<double>(taken.sliceNs) / 1000.0, taken.why.empty() ? "" : ": ",
                taken.why.c_str());
  }
  const auto pause = [gapUs] {
    if (gapUs > 0) ::usleep(static_cast<useconds_t>(gapUs));
  };
  try {
    for (Kind kind : {Kind::STATUS, Kind::PEERS}) {
      {
        // One KJ event loop per thread: this client is gone before the next.
        std::vector<Sample> samples;
        ControlClient client(socket);
        query(client, kind);  // warm up the connection
        for (size_t i = 0; i < queries; ++i) {
          samples.push_back(timed(self, server.get(), [&] { query(client, kind); }));
          pause();
        }
        report(label, kind, "one connection", std::move(samples));
      }

      std::vector<Sample> fresh;
      for (size_t i = 0; i < queries / 10; ++i) {
        fresh.push_back(timed(self, server.get(), [&] {
          ControlClient once(socket);
          query(once, kind);
        }));
        pause();
      }
      report(label, kind, "connect+query", std::move(fresh));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench-control: %s\n", e.what());
    return 1;
  }
  return 0;
}
