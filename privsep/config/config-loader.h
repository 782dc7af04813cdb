// SPDX-License-Identifier: MIT
// Loading fips.yaml: `-c FILE`, the search path with the reference's partial
// merge (spec 08 §3.0), or a string. Runs in the fips supervisor (root, before
// any child exists) and in fipsctl. Input is operator-owned files; nothing in
// them may crash the loader: every failure becomes a ConfigError.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "privsep/config/build-support.h"
#include "privsep/config/config-error.h"
#include "privsep/config/config.h"

namespace fips::privsep::config {

// A loaded, validated configuration.
struct LoadResult {
  Config config;
  // Files that existed and were merged, lowest priority first.
  std::vector<std::string> loadedFiles;
  // Where fips.key / fips.pub live: the directory of the last loaded file, or
  // /etc/fips when none was loaded (spec 01 §4).
  std::string keyDir;
  // "FILE:LINE: key: reason" warnings (a deprecated block, an unknown log
  // level) and "FILE: holds node.identity.nsec but is open to group or
  // others ...", in file order; the caller logs them. Unknown keys are
  // errors everywhere (the reference rejects them only inside transports,
  // peers and node.rendezvous.nostr): a misspelled key must not start a
  // node that silently ignores it (issue #24).
  std::vector<std::string> warnings;
};

// The environment the search path depends on (unset = absent).
struct SearchEnv {
  std::optional<std::string> home;
  std::optional<std::string> xdgConfigHome;
};

// Reads HOME and XDG_CONFIG_HOME from the process environment.
SearchEnv searchEnvFromProcess();

// The search path, lowest priority first: /etc/fips/fips.yaml,
// $XDG_CONFIG_HOME (absolute) or ~/.config + /fips/fips.yaml, ~/.fips.yaml,
// ./fips.yaml.
std::vector<std::string> searchPaths(const SearchEnv& env);

// Every loader call reports all the problems it finds in one ConfigError:
// parse errors of every file, then the checks on the effective config, in
// file and line order. With `build`, a feature the build cannot run is an
// error too (see BuildSupport); without, every feature is accepted.

// `fips -c FILE`: that file only, every key honoured. Throws ConfigError.
LoadResult loadFile(const std::string& path, const BuildSupport* build = nullptr);

// Every existing file of `paths` merged into the defaults in order with the
// reference's partial-merge rules: only node.identity, node.leaf_only,
// node.user (ours), tun, dns, non-empty transports.<type>, non-empty peers
// and gateway are taken from each file; other node.* keys are dropped with a
// warning. Missing files are skipped; a file that exists but cannot be read
// or parsed is an error. Throws ConfigError.
LoadResult loadPaths(const std::vector<std::string>& paths, const BuildSupport* build = nullptr);

// `fips` without -c: loadPaths(searchPaths(searchEnvFromProcess())).
LoadResult loadSearchPath(const BuildSupport* build = nullptr);

// Parses `yaml` as one file named `name` (for messages), with -c semantics.
// keyDir is /etc/fips and loadedFiles is empty. Throws ConfigError.
LoadResult loadString(std::string_view yaml, const std::string& name = "<string>",
                      const BuildSupport* build = nullptr);

}  // namespace fips::privsep::config
