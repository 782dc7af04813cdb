// SPDX-License-Identifier: MIT
// `fipsctl keygen [-d|--dir DIR] [-f|--force] [-s|--stdout] [--json]`: generate an
// identity keypair locally, without the daemon (spec 08 §2, reference
// docs/reference/cli-fipsctl.md). Runs in fipsctl, usually as root; the
// directory comes from the operator's command line.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"

namespace fips::ctl {

struct KeygenOptions {
  std::string dir;
  bool force = false;
  bool toStdout = false;
  bool json = false;  // fipsctl's global --json
};

// Adds the keygen subcommand to `app`, storing its options in `options`
// (which must outlive parsing). The default directory is /etc/fips.
CLI::App& addKeygenCommand(CLI::App& app, KeygenOptions& options);

// Writes fips.key (0600, nsec + "\n") and fips.pub (0644, npub + "\n", the
// reference's format) into the directory, refusing to replace an existing
// fips.key without --force, then prints the npub alone on stdout and where
// the files went and the persistent-identity note on stderr (the reference
// prints the npub to stderr too, leaving PUB=$(fipsctl keygen) empty); or,
// with --stdout, prints the nsec then the npub and writes nothing. With json, stdout gets one
// object instead: {"npub", "node_addr", "ipv6_addr"} (identity --json's
// keys) plus "key_file" and "pub_file", or "nsec" with --stdout (the
// reference has no keygen --json). Returns the exit status.
int runKeygen(const KeygenOptions& options, const crypto::Secp256k1Context& ctx);

// Creates `dir` when missing, but not missing parents (a typo in -d must
// not leave a new directory tree behind; the reference creates every
// missing parent silently). The reason on failure.
std::optional<std::string> makeKeyDir(const std::filesystem::path& dir);

// keygen's writer, shared with init: makeKeyDir, then fips.key (0600) and
// fips.pub (a failed fips.pub only warns on stderr). Replaces an existing
// fips.key: the caller checks first. The reason on failure.
std::optional<std::string> writeKeyPair(const std::filesystem::path& dir,
                                        const crypto::SecretKey& keypair);

}  // namespace fips::ctl
