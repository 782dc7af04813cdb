// SPDX-License-Identifier: MIT
// fork + exec of the supervisor's children (see spawn.h).
#include "privsep/supervisor/spawn.h"

#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <system_error>
#include <unistd.h>

#include <linux/close_range.h>

#include <climits>

#include "privsep/fd-layout.h"

#include "fips-build-config.h"

namespace fips::privsep::supervisor {

namespace {

// Async-signal-safe part that runs in the forked child.
[[noreturn]] void execChild(const std::string& path, const std::string& binary, int supFd,
                            int peerFd) {
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int sig = 1; sig < NSIG; ++sig) ::signal(sig, SIG_DFL);
  // Move the ends above the target numbers first, so dup2 cannot clobber.
  int sup = ::fcntl(supFd, F_DUPFD, 10);
  int peer = peerFd >= 0 ? ::fcntl(peerFd, F_DUPFD, 10) : -1;
  if (sup < 0 || ::dup2(sup, SUPERVISOR_CHANNEL_FD) < 0) ::_exit(127);
  if (peer >= 0 && ::dup2(peer, PEER_CHANNEL_FD) < 0) ::_exit(127);
  int firstToClose = peer >= 0 ? PEER_CHANNEL_FD + 1 : PEER_CHANNEL_FD;
  ::syscall(SYS_close_range, firstToClose, UINT_MAX, 0);
  char* const argv[] = {const_cast<char*>(binary.c_str()), nullptr};
  ::execv(path.c_str(), argv);
  ::_exit(127);
}

}  // namespace

std::string childBinaryDir() {
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto dir = self.parent_path();
    if (std::filesystem::exists(dir / "fips-router", ec)) return dir.string();
  }
  return std::string(FIPS_LIBEXECDIR) + "/fips";
}

pid_t spawnChild(const std::string& dir, const std::string& binary, const UniqueFd& supervisorEnd,
                 const UniqueFd& peerEnd) {
  const std::string path = dir + "/" + binary;
  pid_t pid = ::fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid == 0) execChild(path, binary, supervisorEnd.get(), peerEnd ? peerEnd.get() : -1);
  return pid;
}

}  // namespace fips::privsep::supervisor
