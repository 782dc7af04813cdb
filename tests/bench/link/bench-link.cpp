// SPDX-License-Identifier: MIT
// bench-link (issue #4): one FMP link between two nodes on loopback, frames
// sent as fast as they go, next to raw UDP between two processes and raw
// AEAD measured in the same run. Prints frames/s and Mbit/s per path and
// frame size, the ratio to raw UDP, and the cost of the worker<->router hop.
// Developer tool, never a CI gate; no external input.
//
// Usage: bench-link [--secs S] [--rounds N] [--size 37|100|1400] [--only raw|direct|hop|gso]
// Each (path, size) runs once per round, rounds interleaved so that every
// path sees the same machine load; figures are medians over the rounds.
// Besides the measured rates it prints each side's CPU time per frame (from
// /proc/PID/schedstat) and the rate that implies with one CPU per node, which
// other load on a shared machine distorts much less than the rates.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <sys/utsname.h>
#include <unistd.h>
#include <vector>

#include <spdlog/spdlog.h>

#include "tests/bench/link/bench-node.h"
#include "tests/bench/link/raw-probes.h"
#include "tests/bench/link/runs.h"

namespace {

using namespace fips::bench;

enum class Path { RAW, DIRECT, HOP, RAW_GSO, DIRECT_GSO };

const char* name(Path path) {
  switch (path) {
    case Path::RAW:
      return "raw UDP mmsg";
    case Path::DIRECT:
      return "link direct";
    case Path::HOP:
      return "link via workers";
    case Path::RAW_GSO:
      return "raw UDP GSO/GRO";
    case Path::DIRECT_GSO:
      return "link direct GSO/GRO";
  }
  return "?";
}

struct Options {
  Window window;
  int rounds = 3;
  size_t size = 0;   // 0: every size
  std::string only;  // "": every path
};

// One (path, size) and its samples, one per round.
struct Case {
  Path path;
  size_t bytes;
  std::vector<Sample> samples;
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

bool wanted(const Options& o, Path path, size_t bytes) {
  if (o.size != 0 && o.size != bytes) return false;
  if (o.only.empty()) return true;
  if (o.only == "raw") return path == Path::RAW;
  if (o.only == "direct") return path == Path::DIRECT;
  if (o.only == "hop") return path == Path::HOP;
  return o.only == "gso" && (path == Path::RAW_GSO || path == Path::DIRECT_GSO);
}

std::vector<Case> plan(const Options& o) {
  std::vector<Case> cases;
  for (size_t bytes : {HEARTBEAT_FRAME, size_t{100}, size_t{1400}}) {
    for (Path p : {Path::RAW, Path::DIRECT, Path::HOP}) {
      if (wanted(o, p, bytes)) cases.push_back({p, bytes, {}});
    }
  }
  for (Path p : {Path::RAW_GSO, Path::DIRECT_GSO}) {
    if (wanted(o, p, 1400)) cases.push_back({p, 1400, {}});
  }
  return cases;
}

Sample run(const NodeKeys& keys, const Case& c, const Window& w) {
  switch (c.path) {
    case Path::RAW:
      return runRaw(c.bytes, false, w);
    case Path::DIRECT:
      return runDirect(keys, c.bytes, false, w);
    case Path::HOP:
      return runHop(keys, c.bytes, w);
    case Path::RAW_GSO:
      return runRaw(c.bytes, true, w);
    case Path::DIRECT_GSO:
      return runDirect(keys, c.bytes, true, w);
  }
  return {};
}

std::string firstLine(const char* file, const char* prefix) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (prefix == nullptr || line.rfind(prefix, 0) == 0) return line;
  }
  return "?";
}

void printMachine() {
  utsname u{};
  ::uname(&u);
  std::string cpu = firstLine("/proc/cpuinfo", "model name");
  cpu = cpu.substr(std::min(cpu.size(), cpu.find(':') + 2));
  std::printf("bench-link: %ld CPUs online, %s, Linux %s\n", ::sysconf(_SC_NPROCESSORS_ONLN),
              cpu.c_str(), u.release);
  std::printf("load average at start: %s\n", firstLine("/proc/loadavg", nullptr).c_str());
}

// The sending side's CPU time per frame sent, microseconds.
double txUs(const Sample& s) {
  return s.ok && s.sentPerSec > 0 ? 1e6 * s.senderCpuSecs / (s.sentPerSec * s.windowSecs) : 0;
}

// The receiving side's CPU time per frame delivered, microseconds.
double rxUs(const Sample& s) {
  return s.ok && s.deliveredPerSec > 0
             ? 1e6 * s.receiverCpuSecs / (s.deliveredPerSec * s.windowSecs)
             : 0;
}

// Frames/s the path carries when each node has one CPU to itself: one over
// the busier side's CPU time per frame. Unlike the measured rate, it does
// not depend on how much of the machine other load left to the run.
double capacity(const Sample& s) {
  const double worst = std::max(txUs(s), rxUs(s));
  return worst > 0 ? 1e6 / worst : 0;
}

// Median over rounds of f(sample of a, sample of b), rounds where both ran.
double medianPaired(const Case& a, const Case& b,
                    const std::function<double(const Sample&, const Sample&)>& f) {
  std::vector<double> r;
  for (size_t i = 0; i < std::min(a.samples.size(), b.samples.size()); ++i) {
    if (a.samples[i].ok && b.samples[i].ok && b.samples[i].deliveredPerSec > 0) {
      r.push_back(f(a.samples[i], b.samples[i]));
    }
  }
  return median(r);
}

// Per-round ratio of case a's delivered rate to case b's, median.
double medianRatio(const Case& a, const Case& b) {
  return medianPaired(
      a, b, [](const Sample& x, const Sample& y) { return x.deliveredPerSec / y.deliveredPerSec; });
}

// Per-round ratio of case a's capacity to case b's, median.
double medianCapacityRatio(const Case& a, const Case& b) {
  return medianPaired(a, b, [](const Sample& x, const Sample& y) {
    return capacity(y) > 0 ? capacity(x) / capacity(y) : 0;
  });
}

// Median over the rounds that ran of one figure.
double medianOf(const Case& c, const std::function<double(const Sample&)>& f) {
  std::vector<double> v;
  for (const Sample& s : c.samples) {
    if (s.ok) v.push_back(f(s));
  }
  return median(v);
}

const Case* find(const std::vector<Case>& cases, Path path, size_t bytes) {
  for (const Case& c : cases) {
    if (c.path == path && c.bytes == bytes) return &c;
  }
  return nullptr;
}

void printAead(const Options& o) {
  std::printf(
      "\nraw AEAD, OpenSSL EVP ChaCha20-Poly1305, per CPU-second of one thread, seal+open "
      "per frame (16 B AAD, frame-32 B plaintext):\n");
  std::printf("%8s %16s %10s %8s\n", "frame", "seal+open/s", "Mbit/s", "us/pair");
  for (size_t bytes : {HEARTBEAT_FRAME, size_t{100}, size_t{1400}}) {
    if (o.size != 0 && o.size != bytes) continue;
    const double fps = aeadFramesPerSec(bytes, 0.4);
    std::printf("%6zu B %16.0f %10.0f %8.2f\n", bytes, fps,
                fps * static_cast<double>(bytes) * 8 / 1e6, 1e6 / fps);
  }
}

void printCases(const std::vector<Case>& cases) {
  std::printf("\n%8s  %-19s %9s %9s %7s %7s %5s %6s %6s %9s %7s %5s %5s\n", "frame", "path",
              "sent/s", "deliv/s", "Mbit/s", "vs raw", "CPU%", "tx us", "rx us", "cap/s", "cap/raw",
              "downs", "RSS");
  for (const Case& c : cases) {
    uint64_t downs = 0;
    long rss = 0;
    size_t failed = 0;
    for (const Sample& s : c.samples) {
      failed += s.ok ? 0 : 1;
      downs += s.linkDowns;
      rss = std::max(rss, s.peakRssKiB);
    }
    const double got = medianOf(c, [](const Sample& s) { return s.deliveredPerSec; });
    const bool offload = c.path == Path::RAW_GSO || c.path == Path::DIRECT_GSO;
    const Case* raw = find(cases, offload ? Path::RAW_GSO : Path::RAW, c.bytes);
    std::printf(
        "%6zu B  %-19s %9.0f %9.0f %7.0f %6.1f%% %4.0f%% %6.2f %6.2f %9.0f %6.1f%% %5llu %5.1f%s\n",
        c.bytes, name(c.path), medianOf(c, [](const Sample& s) { return s.sentPerSec; }), got,
        got * static_cast<double>(c.bytes) * 8 / 1e6,
        raw != nullptr ? 100 * medianRatio(c, *raw) : 0,
        medianOf(c,
                 [](const Sample& s) {
                   return 100 * (s.senderCpuSecs + s.receiverCpuSecs) / s.windowSecs;
                 }),
        medianOf(c, txUs), medianOf(c, rxUs), medianOf(c, capacity),
        raw != nullptr ? 100 * medianCapacityRatio(c, *raw) : 0,
        static_cast<unsigned long long>(downs), static_cast<double>(rss) / 1024,
        failed != 0 ? "  (some runs failed)" : "");
  }
  std::printf(
      "sent/s: frames the sender handed on; deliv/s: frames that authenticated at the receiver\n"
      "  (raw: datagrams received); Mbit/s: UDP payload delivered; vs raw: ratio to raw UDP of\n"
      "  the same size, same round; CPU%%: CPU time of the run's processes (of %ld x 100 %%);\n"
      "  tx us / rx us: CPU time of the sending side per frame sent / of the receiving side per\n"
      "  frame delivered (loopback delivery runs in the sender's syscall); cap/s: 1e6 / the\n"
      "  larger of the two, frames/s with one whole CPU per node; cap/raw: its ratio to raw UDP;\n"
      "  downs: links lost; RSS: largest peak RSS of the run's processes, MiB.\n"
      "Measured rates follow the CPU share other load leaves to a run (a path with more\n"
      "processes gets more of a busy machine); cap/s depends on it much less.\n",
      ::sysconf(_SC_NPROCESSORS_ONLN));
}

// "met" or "missed" for a figure against a lower bound.
const char* verdict(double value, double atLeast) {
  return value >= atLeast ? "met" : "missed";
}

void printSummary(const std::vector<Case>& cases) {
  std::printf("\n");
  for (size_t bytes : {HEARTBEAT_FRAME, size_t{100}, size_t{1400}}) {
    const Case* direct = find(cases, Path::DIRECT, bytes);
    const Case* hop = find(cases, Path::HOP, bytes);
    const Case* raw = find(cases, Path::RAW, bytes);
    if (direct != nullptr && hop != nullptr) {
      const double cpu = 100 * medianPaired(*hop, *direct, [](const Sample& h, const Sample& d) {
                           return (txUs(h) + rxUs(h)) / (txUs(d) + rxUs(d)) - 1;
                         });
      const double cap = 100 * (1 - medianCapacityRatio(*hop, *direct));
      std::printf(
          "hop cost at %4zu B (target <= 15 %%): capacity %5.1f %% %s, measured rate "
          "%5.1f %%, CPU per frame %+5.1f %%\n",
          bytes, cap, verdict(-cap, -15), 100 * (1 - medianRatio(*hop, *direct)), cpu);
    }
    for (const Case* link : {direct, hop}) {
      if (link == nullptr || raw == nullptr || bytes == HEARTBEAT_FRAME) continue;
      const double cap = 100 * medianCapacityRatio(*link, *raw);
      const double rate = 100 * medianRatio(*link, *raw);
      std::printf(
          "%-16s at %4zu B, of raw UDP (target >= 75 %%): capacity %5.1f %% %s, "
          "measured %5.1f %% %s\n",
          name(link->path), bytes, cap, verdict(cap, 75), rate, verdict(rate, 75));
    }
  }
  if (const Case* gso = find(cases, Path::DIRECT_GSO, 1400)) {
    const double got = medianOf(*gso, [](const Sample& s) { return s.deliveredPerSec; });
    const double cap = medianOf(*gso, capacity);
    std::printf(
        "stretch, link direct with GSO/GRO at 1400 B (target >= 400000 frames/s): "
        "capacity %.0f %s, measured %.0f %s\n",
        cap, verdict(cap, 400000), got, verdict(got, 400000));
  }
  uint64_t drops = 0;
  uint64_t rekeys = 0;
  for (const Case& c : cases) {
    for (const Sample& s : c.samples) {
      drops += s.engineDrops;
      rekeys += s.rekeys;
    }
  }
  std::printf(
      "in the windows: %llu rekey cutovers (default thresholds), %llu frames dropped by "
      "the receiving engine (replay, MAC, framing)\n",
      static_cast<unsigned long long>(rekeys), static_cast<unsigned long long>(drops));
  std::printf("load average at end: %s\n", firstLine("/proc/loadavg", nullptr).c_str());
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) return false;
    const char* value = argv[++i];
    if (arg == "--secs") {
      o.window.secs = std::atof(value);
    } else if (arg == "--rounds") {
      o.rounds = std::atoi(value);
    } else if (arg == "--size") {
      o.size = static_cast<size_t>(std::atol(value));
    } else if (arg == "--only") {
      o.only = value;
    } else {
      return false;
    }
  }
  return o.window.secs > 0 && o.rounds > 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse(argc, argv, options)) {
    std::fprintf(stderr,
                 "usage: %s [--secs S] [--rounds N] [--size 37|100|1400] "
                 "[--only raw|direct|hop|gso]\n",
                 argv[0]);
    return 2;
  }
  spdlog::set_level(spdlog::level::warn);  // the real worker and TransportSet log at info
  printMachine();
  const NodeKeys keys;
  std::vector<Case> cases = plan(options);
  std::printf(
      "%zu cases x %d rounds, %.2f s window after %.2f s warm-up; receiver on CPU 0, "
      "sender on CPU 1 (a node's router and worker share its CPU)\n",
      cases.size(), options.rounds, options.window.secs, options.window.warmupSecs);
  std::fflush(stdout);
  for (int round = 0; round < options.rounds; ++round) {
    for (Case& c : cases) c.samples.push_back(run(keys, c, options.window));
  }
  printCases(cases);
  printAead(options);
  printSummary(cases);
  return 0;
}
