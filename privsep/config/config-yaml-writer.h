// SPDX-License-Identifier: MIT
// Prints a Config as fips.yaml text: every key, defaults included, in a fixed
// order (`fips --check`, golden tests). Used by the fips supervisor and
// fipsctl on validated configs. Secrets are never printed.
#pragma once

#include <string>

#include "privsep/config/config.h"

namespace fips::privsep::config {

// The effective config as YAML that loads back (loadString) to an equal
// Config, except for the secrets it leaves out: node.identity.nsec and a Tor
// `password:` control_auth are replaced by a comment saying they are set.
std::string toYaml(const Config& config);

// docs/reference/config.md's body: the defaults of every key, each transport
// type as one default instance and a default gateway included, with each
// key's doc string from the field tables as a comment above it.
std::string referenceYaml();

}  // namespace fips::privsep::config
