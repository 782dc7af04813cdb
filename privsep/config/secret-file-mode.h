// SPDX-License-Identifier: MIT
// The warning for a secret-holding file (fips.key, a fips.yaml with
// node.identity.nsec) that group or others may open (issue #24). Used by
// the fips.yaml loader and the supervisor's config check, in `fips` and
// fipsctl; it only stats the file and never changes it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace fips::privsep::config {

// "PATH: holds WHAT but is open to group or others (mode 0644): chmod 600
// PATH" when `path` is a regular file (symlinks followed) with any
// group or other permission bit; nullopt when it is private, absent or
// cannot be stat()ed. `what` is e.g. "the node's secret key".
std::optional<std::string> looseSecretFileWarning(const std::string& path, std::string_view what);

}  // namespace fips::privsep::config
