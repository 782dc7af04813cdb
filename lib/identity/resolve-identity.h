// SPDX-License-Identifier: MIT
// Identity resolution at startup (spec 01 §4, node.identity.*): explicit
// nsec, persistent key file, or a fresh ephemeral key. Runs in the supervisor
// (root), before children are started; the nsec comes from the config file
// and the key directory from the config's location, both operator-controlled.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"

namespace fips::identity {

// Where the resolved key came from.
enum class IdentitySource {
  CONFIG,     // node.identity.nsec
  KEY_FILE,   // an existing fips.key (persistent mode)
  GENERATED,  // generated and saved to a new fips.key (persistent mode)
  EPHEMERAL,  // generated for this run (persistent: false); in memory only
};

// The node's secret key, its origin, the key file involved (empty for
// CONFIG and EPHEMERAL) and warnings for the operator, one line each, to be logged.
struct ResolvedIdentity {
  crypto::SecretKey secretKey;
  IdentitySource source;
  std::filesystem::path keyPath;
  std::vector<std::string> warnings;
};

// The key directory the reference derives from the config files that were
// loaded: the directory of the last one, or SYSTEM_CONFIG_DIR if none was.
std::filesystem::path keyDirectoryFor(const std::vector<std::filesystem::path>& loadedConfigs);

// Resolves the node identity as the reference's resolve_identity does:
// 1. `nsec` set (nsec1... or 64 hex) wins, whatever `persistent` says; a
//    malformed one is an error.
// 2. `persistent`: load keyDir/fips.key if anything exists at that name
//    (errors in it are fatal) and rewrite fips.pub; else generate a key and
//    write both files. Deliberate difference from the reference: a key that
//    cannot be written is an error here, never a silent fall back to an
//    ephemeral identity. (The reference's legacy /etc/fips fallback is inert
//    on Linux and is not implemented.)
// 3. otherwise: generate a fresh key that lives in memory only. Deliberate
//    difference from the reference, which writes it over fips.key and
//    fips.pub: no key file is ever overwritten, so a key made by `fipsctl
//    keygen` survives a config that lacks, misspells or falsifies
//    `persistent` (issue #24). An existing fips.key is left alone and named
//    in a warning (set persistent: true to use it).
// fips.pub write failures are always warnings. Returns the identity or a
// one-line error message.
std::variant<ResolvedIdentity, std::string> resolveIdentity(const crypto::Secp256k1Context& ctx,
                                                            std::optional<std::string_view> nsec,
                                                            bool persistent,
                                                            const std::filesystem::path& keyDir);

}  // namespace fips::identity
