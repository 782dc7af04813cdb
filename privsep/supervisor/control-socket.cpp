// SPDX-License-Identifier: MIT
// The control socket's listening end (see control-socket.h). Runs in `fips`
// as root.
#include "privsep/supervisor/control-socket.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <grp.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "privsep/control-path.h"

namespace fips::privsep::supervisor {

namespace {

constexpr int LISTEN_BACKLOG = 128;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error(
      fmt::format("control socket {}: {}: {}", path, what, std::strerror(errno)));
}

sockaddr_un unixAddress(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(addr.sun_path)) {
    throw std::runtime_error(fmt::format("control socket {}: path too long (max {} bytes)", path,
                                         sizeof(addr.sun_path) - 1));
  }
  std::memcpy(addr.sun_path, path.data(), path.size());
  return addr;
}

// Creates `dir` and missing ancestors; true when `dir` itself was created.
bool ensureParent(const std::filesystem::path& dir) {
  if (dir.empty()) return false;
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return false;
  std::filesystem::create_directories(dir.parent_path(), ec);
  if (::mkdir(dir.c_str(), 0700) == 0) return true;
  if (errno == EEXIST && std::filesystem::is_directory(dir, ec)) return false;
  fail(dir.string(), "cannot create the directory");
}

// A socket file nobody listens on is removed; a live one is an error.
void removeStale(const std::string& path, const sockaddr_un& addr) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;
  if (!S_ISSOCK(st.st_mode)) fail(path, "exists and is not a socket");
  UniqueFd probe(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (probe &&
      ::connect(probe.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0) {
    throw std::runtime_error(fmt::format("control socket already in use: {}", path));
  }
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) fail(path, "cannot remove the stale socket");
}

void setAccess(const std::string& path, unsigned mode) {
  if (::chmod(path.c_str(), mode) != 0) fail(path, "chmod");
  const group* grp = ::getgrnam(CONTROL_GROUP);
  if (grp == nullptr) {
    spdlog::debug("group '{}' not found: {} keeps its group", CONTROL_GROUP, path);
    return;
  }
  if (::chown(path.c_str(), static_cast<uid_t>(-1), grp->gr_gid) != 0) fail(path, "chgrp");
}

}  // namespace

UniqueFd bindControlSocket(const std::string& path) {
  const sockaddr_un addr = unixAddress(path);
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const bool created = ensureParent(parent);
  removeStale(path, addr);
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd) fail(path, "socket");
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
    fail(path, "bind");
  }
  if (::listen(fd.get(), LISTEN_BACKLOG) != 0) fail(path, "listen");
  setAccess(path, CONTROL_SOCKET_MODE);
  if (created || isManagedSocketParent(parent.string(), xdgRuntimeDirFromEnv())) {
    setAccess(parent.string(), CONTROL_PARENT_MODE);
  }
  return fd;
}

void removeControlSocket(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) ::unlink(path.c_str());
}

}  // namespace fips::privsep::supervisor
