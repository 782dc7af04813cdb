// SPDX-License-Identifier: MIT
// bench-control: latency of the control socket's read queries (`show status`
// and `show peers`, control.capnp status/peers) against a running fips node,
// as percentiles. Developer tool run by control-bench.sh (issue #7); the
// socket's answers are only timed, not trusted for anything else.
//
//   bench-control SOCKET [QUERIES] [LABEL]
//
// For each query kind: QUERIES calls on one connection (the RPC round trip),
// then QUERIES / 10 calls each on a fresh connection (what one fipsctl
// invocation pays, without process start-up). Prints one line per kind and
// mode: label, kind, mode, n, p50, p99 and max in microseconds.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ctl/control-client.h"

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

// Microseconds since `start`.
double micros(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// The p-th percentile (0..100) of sorted samples, nearest rank.
double percentile(const std::vector<double>& sorted, double p) {
  const auto rank = static_cast<size_t>(p / 100.0 * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(rank, sorted.size() - 1)];
}

void report(const std::string& label, Kind kind, const char* mode, std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  std::printf("%-6s %-12s %-16s n=%-5zu p50 %8.1f us  p99 %8.1f us  max %8.1f us\n", label.c_str(),
              name(kind), mode, samples.size(), percentile(samples, 50), percentile(samples, 99),
              samples.back());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench-control SOCKET [QUERIES] [LABEL]\n");
    return 2;
  }
  const std::string socket = argv[1];
  const size_t queries = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 2000;
  const std::string label = argc > 3 ? argv[3] : "run";
  if (queries < 10) {
    std::fprintf(stderr, "bench-control: QUERIES must be at least 10\n");
    return 2;
  }
  try {
    for (Kind kind : {Kind::STATUS, Kind::PEERS}) {
      {
        // One KJ event loop per thread: this client is gone before the next.
        std::vector<double> samples;
        ControlClient client(socket);
        query(client, kind);  // warm up the connection
        for (size_t i = 0; i < queries; ++i) {
          const auto start = Clock::now();
          query(client, kind);
          samples.push_back(micros(start));
        }
        report(label, kind, "one connection", std::move(samples));
      }

      std::vector<double> fresh;
      for (size_t i = 0; i < queries / 10; ++i) {
        const auto start = Clock::now();
        ControlClient once(socket);
        query(once, kind);
        fresh.push_back(micros(start));
      }
      report(label, kind, "connect+query", std::move(fresh));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench-control: %s\n", e.what());
    return 1;
  }
  return 0;
}
