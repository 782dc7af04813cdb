// SPDX-License-Identifier: MIT
// Default control socket path (see control-path.h).
#include "privsep/control-path.h"

#include <cstdlib>
#include <sys/stat.h>

namespace fips::privsep {

namespace {

constexpr const char* RUN_DIR = "/run/fips";
constexpr const char* SOCKET_NAME = "control.sock";

bool statIsDir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::optional<std::string> xdgRuntimeDirFromEnv() {
  const char* value = std::getenv("XDG_RUNTIME_DIR");
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

std::string resolveControlSocketPath(const std::function<bool(const std::string&)>& isDir,
                                     const std::optional<std::string>& xdgRuntimeDir) {
  if (isDir(RUN_DIR)) return std::string(RUN_DIR) + "/" + SOCKET_NAME;
  if (xdgRuntimeDir && isDir(*xdgRuntimeDir)) return *xdgRuntimeDir + "/fips/" + SOCKET_NAME;
  return std::string("/tmp/fips-") + SOCKET_NAME;
}

std::string defaultControlSocketPath() {
  return resolveControlSocketPath(statIsDir, xdgRuntimeDirFromEnv());
}

bool isManagedSocketParent(const std::string& parent,
                           const std::optional<std::string>& xdgRuntimeDir) {
  return parent == RUN_DIR || (xdgRuntimeDir && parent == *xdgRuntimeDir + "/fips");
}

}  // namespace fips::privsep
