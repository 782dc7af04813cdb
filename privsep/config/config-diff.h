// SPDX-License-Identifier: MIT
// Which fips.yaml keys differ between two configs (SIGHUP reports each
// changed key by name). Runs in the fips supervisor on validated configs.
#pragma once

#include <string>
#include <vector>

#include "privsep/config/config.h"

namespace fips::privsep::config {

// The dotted fips.yaml keys ("node.control.json_compat", "tun.mtu") whose
// effective value differs between `before` and `after`, in the order toYaml
// prints them (keys only in `before` last). A list of maps (peers,
// gateway.port_forwards) or of strings is one key; a changed
// node.identity.nsec is named although toYaml leaves the secret out. The
// values themselves are never returned (a secret must not reach a log).
std::vector<std::string> changedKeys(const Config& before, const Config& after);

}  // namespace fips::privsep::config
