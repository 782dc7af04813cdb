// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: the reference's partial merge of search
// path files (Config::merge, spec 08 §3.0). Runs in the fips supervisor and
// fipsctl on configs already parsed from operator-owned files.
#pragma once

#include <string>
#include <vector>

#include "privsep/config/config.h"
#include "privsep/config/yaml-reader.h"

namespace fips::privsep::config {

// Merges one search-path file into `base`: node.identity.nsec (if set),
// node.identity.persistent and node.leaf_only (only true sticks), node.user
// (if set; ours), tun.enabled (only true sticks), tun.name/mtu (if set),
// dns.enabled (always), dns.bind_addr/port/ttl (if set), each non-empty
// transports.<type>, non-empty peers, and gateway (if present). The other
// node.* keys of the file are dropped, each with a warning. `baseOrigins`
// follows the values taken.
void mergeFile(Config& base, Origins& baseOrigins, const Config& file, const Origins& fileOrigins,
               std::vector<std::string>& warnings);

}  // namespace fips::privsep::config
