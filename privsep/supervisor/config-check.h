// SPDX-License-Identifier: MIT
// The one config check of the supervisor: `fips --check`, every start and
// every SIGHUP reload go through it, so a config that fails --check never
// starts (issue #24). Runs in `fips` (root for a start, any user for
// --check) on operator-owned files.
#pragma once

#include <optional>
#include <string>

#include "privsep/config/build-support.h"
#include "privsep/config/config-loader.h"

namespace fips::privsep::supervisor {

// What this build runs: the udp and tcp transports; no gateway, rendezvous or
// native API yet.
const config::BuildSupport& thisBuild();

// Loads `-c FILE` (or the search path when `file` is empty) with
// thisBuild(), and adds the warning for a fips.key in the key directory
// that group or others may open. Throws config::ConfigError with every
// problem found, including "no config file found" (naming the paths
// searched) when the search path has none.
config::LoadResult loadCheckedConfig(const std::optional<std::string>& file);

}  // namespace fips::privsep::supervisor
