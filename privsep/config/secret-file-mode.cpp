// SPDX-License-Identifier: MIT
// Secret file mode warnings (see secret-file-mode.h).
#include "privsep/config/secret-file-mode.h"

#include <sys/stat.h>

#include <fmt/format.h>

namespace fips::privsep::config {

namespace {

constexpr mode_t GROUP_OTHER_BITS = S_IRWXG | S_IRWXO;
constexpr mode_t PERMISSION_BITS = 07777;

}  // namespace

std::optional<std::string> looseSecretFileWarning(const std::string& path, std::string_view what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  if ((st.st_mode & GROUP_OTHER_BITS) == 0) return std::nullopt;
  return fmt::format("{}: holds {} but is open to group or others (mode {:04o}): chmod 600 {}",
                     path, what, st.st_mode & PERMISSION_BITS, path);
}

}  // namespace fips::privsep::config
