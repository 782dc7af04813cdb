// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: value shapes (addresses, keys, names) and
// the reference's cross-field rules (spec 08 §3.5) on the effective config.
// Runs in the fips supervisor and fipsctl on operator-owned input.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "privsep/config/build-support.h"
#include "privsep/config/config.h"
#include "privsep/config/yaml-reader.h"

namespace fips::privsep::config {

// Appends "FILE:LINE: key.path: reason" errors and warnings for `config`.
// Each key is located through `origins` (its nearest recorded ancestor when
// it kept its default); `fallbackFile` names the source when nothing is
// recorded. Secret values are never quoted. An error for a key in
// `alreadyReported` (or below one) is left out: the parser reported that
// value already. With `build`, what this build cannot run (a transport
// type, gateway, rendezvous, native API) is an error too.
void validateConfig(const Config& config, const Origins& origins, const std::string& fallbackFile,
                    const std::set<std::string>& alreadyReported, const BuildSupport* build,
                    std::vector<std::string>& errors, std::vector<std::string>& warnings);

}  // namespace fips::privsep::config
