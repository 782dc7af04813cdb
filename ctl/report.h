// SPDX-License-Identifier: MIT
// How fipsctl reports problems: one line on stderr, "fipsctl: <reason>", and
// exit status 1 for errors (the reference's exit codes: 0 ok, 1 error).
// Runs in fipsctl.
#pragma once

#include <cstdio>
#include <string_view>

namespace fips::ctl {

// Prints "fipsctl: <reason>" to stderr and returns the exit status 1.
inline int reportError(std::string_view reason) {
  std::fprintf(stderr, "fipsctl: %.*s\n", static_cast<int>(reason.size()), reason.data());
  return 1;
}

// Prints "fipsctl: warning: <reason>" to stderr.
inline void reportWarning(std::string_view reason) {
  std::fprintf(stderr, "fipsctl: warning: %.*s\n", static_cast<int>(reason.size()), reason.data());
}

}  // namespace fips::ctl
