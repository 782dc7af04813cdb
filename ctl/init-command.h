// SPDX-License-Identifier: MIT
// `fipsctl init [-d DIR] [--listen ADDR:PORT] [--peer NPUB@HOST:PORT]...
// [--dns ADDR:PORT] [--socket PATH] [--force] [--json]`: a new node's
// directory in one command, as `yggdrasil -genconf` and `wg genkey` do:
// DIR/fips.yaml (init-config.h) and the key pair fips.key / fips.pub
// (keygen's writer). Runs in fipsctl, usually as root; everything comes
// from the operator's command line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "lib/crypto/secp256k1-context.h"

namespace fips::ctl {

struct InitOptions {
  std::string dir;  // default /etc/fips
  std::string listen = "0.0.0.0:2121";
  std::vector<std::string> peers;  // NPUB@HOST:PORT each
  std::string socketPath;          // "" = initSocketPath(dir)
  std::string dns = "[::1]:5354";  // the .fips responder: dns.bind_addr and dns.port
  bool force = false;
  bool json = false;  // fipsctl's global --json
};

// Adds the init subcommand to `app`, storing its options in `options`
// (which must outlive parsing).
CLI::App& addInitCommand(CLI::App& app, InitOptions& options);

// Writes DIR/fips.yaml (0600, atomically; an existing one is refused
// unless --force) after checking it with the config loader, and the key
// pair unless DIR/fips.key exists: an existing key is always kept (even
// with --force) and said to be reused; one that cannot be read is an
// error and nothing is written. Prints the npub, the fd00:: address and
// the commands to run next, or with json one object: {"npub",
// "node_addr", "ipv6_addr", "config_file", "key_file", "pub_file",
// "key_reused", "socket_path" (null for the default), "next": [...]}.
// Returns the exit status (0, or 1 with one "fipsctl: ..." line).
int runInit(const InitOptions& options, const crypto::Secp256k1Context& ctx);

}  // namespace fips::ctl
