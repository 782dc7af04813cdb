// SPDX-License-Identifier: MIT
// Process plumbing of bench-link (see bench-proc.h). Runs in the benchmark's
// controller and its forked children; no external input.
#include "tests/bench/link/bench-proc.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <netinet/in.h>
#include <new>
#include <sched.h>
#include <signal.h>
#include <string>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace fips::bench {

namespace {

[[noreturn]] void throwErrno(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

sockaddr_in loopback(uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  return a;
}

// VmHWM of a live process, KiB (0 if unreadable).
long peakRssKiB(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  }
  return 0;
}

// CPU time a live process has run, seconds (sum_exec_runtime).
double cpuSecs(pid_t pid) {
  std::ifstream schedstat("/proc/" + std::to_string(pid) + "/schedstat");
  double ns = 0;
  schedstat >> ns;
  return ns / 1e9;
}

double cpuSecs(const std::vector<pid_t>& pids) {
  double total = 0;
  for (pid_t pid : pids) total += cpuSecs(pid);
  return total;
}

}  // namespace

SharedPage::SharedPage() {
  void* page = ::mmap(nullptr, sizeof(SharedCounters), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) throwErrno("mmap(MAP_SHARED)");
  counters_ = new (page) SharedCounters();
}

SharedPage::~SharedPage() {
  counters_->~SharedCounters();
  ::munmap(counters_, sizeof(SharedCounters));
}

void pinToCpu(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  ::sched_setaffinity(0, sizeof(set), &set);
}

double nowSecs() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

UniqueFd loopbackUdpSocket(int bufBytes) {
  UniqueFd fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!fd) throwErrno("socket(AF_INET, SOCK_DGRAM)");
  if (::setsockopt(fd.get(), SOL_SOCKET, SO_RCVBUFFORCE, &bufBytes, sizeof(bufBytes)) != 0) {
    ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVBUF, &bufBytes, sizeof(bufBytes));
  }
  if (::setsockopt(fd.get(), SOL_SOCKET, SO_SNDBUFFORCE, &bufBytes, sizeof(bufBytes)) != 0) {
    ::setsockopt(fd.get(), SOL_SOCKET, SO_SNDBUF, &bufBytes, sizeof(bufBytes));
  }
  const sockaddr_in any = loopback(0);
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&any), sizeof(any)) != 0) {
    throwErrno("bind(127.0.0.1:0)");
  }
  return fd;
}

uint16_t localPort(int fd) {
  sockaddr_in a{};
  socklen_t len = sizeof(a);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) throwErrno("getsockname");
  return ntohs(a.sin_port);
}

pid_t spawn(SharedCounters& shared, const std::function<void()>& body) {
  const pid_t pid = ::fork();
  if (pid < 0) throwErrno("fork");
  if (pid > 0) return pid;
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  int status = 0;
  try {
    body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench-link child: %s\n", e.what());
    shared.failed.store(1);
    status = 1;
  }
  ::_exit(status);
}

Sample sampleRun(SharedCounters& shared, const std::vector<pid_t>& receiverSide,
                 const std::vector<pid_t>& senderSide, double warmupSecs, double windowSecs) {
  using std::chrono::duration;
  Sample s;
  const double deadline = nowSecs() + 5.0;
  while ((shared.ready.load() & READY_SENDER) == 0 && shared.failed.load() == 0 &&
         nowSecs() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if ((shared.ready.load() & READY_SENDER) != 0 && shared.failed.load() == 0) {
    std::this_thread::sleep_for(duration<double>(warmupSecs));
    const uint64_t sent0 = shared.sent.load();
    const uint64_t got0 = shared.delivered.load();
    const uint64_t downs0 = shared.linkDowns.load();
    const uint64_t rekeys0 = shared.rekeys.load();
    const uint64_t drops0 = shared.engineDrops.load();
    const double tx0 = cpuSecs(senderSide);
    const double rx0 = cpuSecs(receiverSide);
    const double t0 = nowSecs();
    std::this_thread::sleep_for(duration<double>(windowSecs));
    s.windowSecs = nowSecs() - t0;
    s.senderCpuSecs = cpuSecs(senderSide) - tx0;
    s.receiverCpuSecs = cpuSecs(receiverSide) - rx0;
    s.sentPerSec = static_cast<double>(shared.sent.load() - sent0) / s.windowSecs;
    s.deliveredPerSec = static_cast<double>(shared.delivered.load() - got0) / s.windowSecs;
    s.linkDowns = shared.linkDowns.load() - downs0;
    s.rekeys = shared.rekeys.load() - rekeys0;
    s.engineDrops = shared.engineDrops.load() - drops0;
    s.ok = shared.failed.load() == 0;
  }
  std::vector<pid_t> all = receiverSide;
  all.insert(all.end(), senderSide.begin(), senderSide.end());
  for (pid_t pid : all) s.peakRssKiB = std::max(s.peakRssKiB, peakRssKiB(pid));
  for (pid_t pid : all) ::kill(pid, SIGKILL);
  for (pid_t pid : all) ::waitpid(pid, nullptr, 0);
  return s;
}

}  // namespace fips::bench
