// SPDX-License-Identifier: MIT
// seccomp allow-lists with libseccomp (see seccomp-filter.h).
#include "privsep/seccomp-filter.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "fips-build-config.h"

#if FIPS_HAVE_SECCOMP
#include <fcntl.h>
#include <sched.h>
#include <sys/socket.h>

#include <seccomp.h>
#endif

#include <spdlog/spdlog.h>

namespace fips::privsep {

#if FIPS_HAVE_SECCOMP
namespace {

// What every event-loop process needs: memory, time, signals, its fds,
// logging to stderr, and exiting.
constexpr std::initializer_list<int> BASE_SYSCALLS = {
    SCMP_SYS(read),
    SCMP_SYS(write),
    SCMP_SYS(readv),
    SCMP_SYS(writev),
    SCMP_SYS(close),
    SCMP_SYS(fstat),
    SCMP_SYS(newfstatat),
    SCMP_SYS(lseek),
    SCMP_SYS(fcntl),
    SCMP_SYS(dup),
    SCMP_SYS(recvmsg),
    SCMP_SYS(sendmsg),
    SCMP_SYS(epoll_wait),
    SCMP_SYS(epoll_pwait),
    SCMP_SYS(epoll_ctl),
    SCMP_SYS(poll),
    SCMP_SYS(ppoll),
    SCMP_SYS(select),
    SCMP_SYS(clock_gettime),
    SCMP_SYS(gettimeofday),
    SCMP_SYS(clock_nanosleep),
    SCMP_SYS(nanosleep),
    SCMP_SYS(getpid),
    SCMP_SYS(gettid),
    SCMP_SYS(getuid),
    SCMP_SYS(geteuid),
    SCMP_SYS(futex),
    SCMP_SYS(brk),
    SCMP_SYS(mmap),
    SCMP_SYS(munmap),
    SCMP_SYS(mremap),
    SCMP_SYS(madvise),
    SCMP_SYS(mprotect),
    SCMP_SYS(rt_sigreturn),
    SCMP_SYS(rt_sigprocmask),
    SCMP_SYS(rt_sigaction),
    SCMP_SYS(sigaltstack),
    SCMP_SYS(tgkill),
    SCMP_SYS(getrandom),
    SCMP_SYS(sched_yield),
    SCMP_SYS(restart_syscall),
    SCMP_SYS(exit),
    SCMP_SYS(exit_group),
    SCMP_SYS(pipe2),
    SCMP_SYS(eventfd2),
    SCMP_SYS(getsockopt),
    SCMP_SYS(prctl),
    SCMP_SYS(sched_getaffinity),
};

// Datagram I/O of a transport worker on sockets it already holds.
constexpr std::initializer_list<int> TRANSPORT_SYSCALLS = {
    SCMP_SYS(recvmmsg), SCMP_SYS(sendmmsg),   SCMP_SYS(recvfrom),
    SCMP_SYS(sendto),   SCMP_SYS(setsockopt),
};

// A resolver thread's getaddrinfo (glibc, "files dns", traced): the
// thread's own set-up, uname for the search domain, DNS over sockets it
// connects, getsockname for RFC 6724 sorting; the calls that take flags or
// a family are narrowed in allowResolver. nscd's AF_UNIX socket is refused
// (glibc then resolves itself).
constexpr std::initializer_list<int> RESOLVER_SYSCALLS = {
    SCMP_SYS(set_robust_list), SCMP_SYS(rseq),        SCMP_SYS(uname),
    SCMP_SYS(connect),         SCMP_SYS(getsockname),
};

// A stream worker dials and accepts TCP connections after the sandbox is on.
constexpr std::initializer_list<int> STREAM_SYSCALLS = {
    SCMP_SYS(connect),     SCMP_SYS(accept4),     SCMP_SYS(shutdown),
    SCMP_SYS(getsockname), SCMP_SYS(getpeername),
};

// The router reads and writes the TUN fd; its DNS socket needs only
// recvmsg/sendmsg (in the base list); its control thread accepts on the
// control socket the supervisor bound, and shuts connections down.
constexpr std::initializer_list<int> ROUTER_SYSCALLS = {
    SCMP_SYS(recvmmsg),   SCMP_SYS(sendmmsg), SCMP_SYS(accept4),     SCMP_SYS(ioctl),
    SCMP_SYS(setsockopt), SCMP_SYS(shutdown), SCMP_SYS(getsockname),
};

// The tun-helper only talks netlink and removes its device at shutdown.
constexpr std::initializer_list<int> TUN_HELPER_SYSCALLS = {
    SCMP_SYS(socket),   SCMP_SYS(bind),       SCMP_SYS(getsockname), SCMP_SYS(sendto),
    SCMP_SYS(recvfrom), SCMP_SYS(setsockopt), SCMP_SYS(ioctl),
};

struct FilterDeleter {
  void operator()(void* ctx) const { seccomp_release(ctx); }
};

// An argument comparison; libseccomp's SCMP_A* macros are compound
// literals, which clang refuses in C++.
scmp_arg_cmp argCmp(unsigned arg, scmp_compare op, scmp_datum_t a, scmp_datum_t b = 0) {
  scmp_arg_cmp cmp{};
  cmp.arg = arg;
  cmp.op = op;
  cmp.datum_a = a;
  cmp.datum_b = b;
  return cmp;
}

void check(int rc) {
  if (rc != 0) throw std::runtime_error("seccomp_rule_add: " + std::string(std::strerror(-rc)));
}

void allow(scmp_filter_ctx ctx, std::initializer_list<int> calls) {
  for (int call : calls) check(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, call, 0));
}

// Threads but no processes: clone only with CLONE_THREAD, and clone3 (whose
// flags a filter cannot see) answers ENOSYS so glibc falls back to clone.
// Files only for reading. Sockets only of the Internet families.
void allowResolver(scmp_filter_ctx ctx) {
  allow(ctx, RESOLVER_SYSCALLS);
  check(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                         argCmp(0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD)));
  check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0));
  const scmp_datum_t writeFlags = O_ACCMODE | O_CREAT | O_TRUNC;
  check(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1,
                         argCmp(2, SCMP_CMP_MASKED_EQ, writeFlags, O_RDONLY)));
  for (int family : {AF_INET, AF_INET6}) {
    check(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1,
                           argCmp(0, SCMP_CMP_EQ, static_cast<scmp_datum_t>(family))));
  }
}

// Sockets only of the Internet families, only streams (any flags).
void allowStreamSockets(scmp_filter_ctx ctx) {
  allow(ctx, STREAM_SYSCALLS);
  for (int family : {AF_INET, AF_INET6}) {
    check(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 2,
                           argCmp(0, SCMP_CMP_EQ, static_cast<scmp_datum_t>(family)),
                           argCmp(1, SCMP_CMP_MASKED_EQ, 0xF, SOCK_STREAM)));
  }
}

// The router re-reads the hosts file (spec 05 §5): openat, read-only only.
void allowReadOnlyOpen(scmp_filter_ctx ctx) {
  const scmp_datum_t writeFlags = O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND;
  check(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1,
                         argCmp(2, SCMP_CMP_MASKED_EQ, writeFlags, O_RDONLY)));
}

}  // namespace

void loadSeccomp(SeccompProfile profile) {
  std::unique_ptr<void, FilterDeleter> ctx(seccomp_init(SCMP_ACT_ERRNO(EPERM)));
  if (!ctx) throw std::runtime_error("seccomp_init failed");
  // Applies to every thread of the process (the router's control thread
  // exists before the filter is loaded).
  if (seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_TSYNC, 1) != 0) {
    throw std::runtime_error("seccomp: cannot synchronise the filter to every thread");
  }
  allow(ctx.get(), BASE_SYSCALLS);
  switch (profile) {
    case SeccompProfile::ROUTER:
      allow(ctx.get(), ROUTER_SYSCALLS);
      allowReadOnlyOpen(ctx.get());
      break;
    case SeccompProfile::TRANSPORT:
      allow(ctx.get(), TRANSPORT_SYSCALLS);
      break;
    case SeccompProfile::TRANSPORT_RESOLVER:
      allow(ctx.get(), TRANSPORT_SYSCALLS);
      allowResolver(ctx.get());
      break;
    case SeccompProfile::TRANSPORT_STREAM:
      allow(ctx.get(), TRANSPORT_SYSCALLS);
      allowStreamSockets(ctx.get());
      break;
    case SeccompProfile::TUN_HELPER:
      allow(ctx.get(), TUN_HELPER_SYSCALLS);
      break;
  }
  int rc = seccomp_load(ctx.get());
  if (rc != 0) throw std::runtime_error("seccomp_load: " + std::string(std::strerror(-rc)));
}
#else
void loadSeccomp(SeccompProfile) {
  spdlog::warn("built without libseccomp: no system-call filter loaded");
}
#endif

}  // namespace fips::privsep
