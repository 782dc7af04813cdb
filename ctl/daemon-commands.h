// SPDX-License-Identifier: MIT
// fipsctl's daemon subcommands (spec 08 §2, reference
// docs/reference/cli-fipsctl.md): status, show, acl, stats, connect,
// disconnect, probe. Those the router can answer talk to its control service; those
// for layers this build lacks say so and exit 1. Runs in fipsctl; every
// argument is operator input.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace fips::ctl {

struct DaemonOptions {
  std::string socketPath;  // -s; "" = not given (socket-choice.h)
  std::string configPath;  // -c; "" = not given
  bool json = false;
  std::string format;  // stats metrics --format: table, json, prometheus; "" = not given (table)
  std::string peer;
  std::string address;
  std::string transport;
  // stats history
  std::string metric;
  std::string window = "10m";
  std::string granularity = "1s";
  bool plot = false;
  unsigned probeTimeoutSecs = 0;  // probe --timeout; 0 = the node's lookup ladder + 1 s
  // Each leaf subcommand and what it runs (filled by addDaemonCommands).
  std::vector<std::pair<const CLI::App*, std::function<int(const DaemonOptions&)>>> actions;
};

// Adds the daemon subcommands to `app`, storing options in `options`
// (which, like `app`, must outlive runDaemonCommand).
void addDaemonCommands(CLI::App& app, DaemonOptions& options);

// Runs the daemon subcommand that was parsed and returns its exit status
// (0 ok, 1 any error, printed as one "fipsctl: ..." line on stderr);
// nullopt when none was parsed.
std::optional<int> runDaemonCommand(const DaemonOptions& options);

// The npub for `peer`: itself when it starts with "npub1", else its entry
// in the hosts file at `hostsPath`; nullopt when it has none.
std::optional<std::string> resolvePeer(const std::string& peer, const std::string& hostsPath);

// True when `address` is an IPv6 literal in fd00::/8 (bare, "[addr]:port"
// or "addr:port"), the mesh's own addresses.
bool isFipsMeshAddress(const std::string& address);

}  // namespace fips::ctl
