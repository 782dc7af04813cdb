// SPDX-License-Identifier: MIT
// `fipsctl identity [--nsec NSEC | --key-file FILE] [--json]`: show the npub,
// node_addr and FIPS IPv6 address of a secret key, without the daemon.
// Runs in fipsctl; the key comes from the operator's command line or a key
// file, and malformed keys are reported, never trusted.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "lib/crypto/secp256k1-context.h"

namespace fips::ctl {

struct IdentityOptions {
  std::optional<std::string> nsec;
  std::string keyFile;
  bool json = false;
};

// Adds the identity subcommand to `app`, storing its options in `options`
// (which must outlive parsing). The default key file is /etc/fips/fips.key.
CLI::App& addIdentityCommand(CLI::App& app, IdentityOptions& options);

// Prints `npub: ...`, `node_addr: ...` (32 hex), `ipv6: ...` one per line,
// or with --json one object with exactly the keys npub, node_addr, ipv6.
// Returns the exit status.
int runIdentity(const IdentityOptions& options, const crypto::Secp256k1Context& ctx);

}  // namespace fips::ctl
