// SPDX-License-Identifier: MIT
// How fipsctl reports problems: one line on stderr, "fipsctl: <reason>", and
// exit status 1 for errors (the reference's exit codes: 0 ok, 1 error).
// Runs in fipsctl. An error line never carries a secret key: any word in an
// nsec's or 64 hex characters' form is withheld (operator input such as a
// pasted nsec is echoed by parse errors and daemon answers alike).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "lib/identity/secret-text.h"

namespace fips::ctl {

// Prints "fipsctl: <reason>" to stderr, secret keys withheld, and returns
// the exit status 1.
inline int reportError(std::string_view reason) {
  const std::string line = identity::withoutSecretKeys(reason);
  std::fprintf(stderr, "fipsctl: %s\n", line.c_str());
  return 1;
}

// Prints "fipsctl: warning: <reason>" to stderr.
inline void reportWarning(std::string_view reason) {
  std::fprintf(stderr, "fipsctl: warning: %.*s\n", static_cast<int>(reason.size()), reason.data());
}

}  // namespace fips::ctl
