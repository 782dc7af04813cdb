// SPDX-License-Identifier: MIT
// The identity key files fips.key (nsec, 0600) and fips.pub (npub, 0644)
// (spec 01 §4). Read and written by the supervisor (root) and fipsctl
// keygen/identity. The files' contents and the directory are not trusted:
// symlinks, other owners and loose modes are refused or repaired.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <variant>

#include "lib/crypto/secp256k1-keys.h"

namespace fips::identity {

inline constexpr std::string_view KEY_FILE_NAME = "fips.key";
inline constexpr std::string_view PUB_FILE_NAME = "fips.pub";
// Where packaging installs fips.yaml on Linux, and so where keys live by
// default (the reference's SYSTEM_CONFIG_DIR).
inline constexpr std::string_view SYSTEM_CONFIG_DIR = "/etc/fips";

// A key read from fips.key, and a warning when its mode had to be fixed.
struct LoadedKey {
  crypto::SecretKey secretKey;
  std::optional<std::string> warning;
};

// Reads a key file: opened with O_NOFOLLOW (a symlink is refused), it must
// be a regular file owned by the effective uid and at most 4096 bytes. A
// mode other than 0600 is set to 0600 through the open descriptor and
// reported in `warning`. The contents are trimmed of ASCII whitespace and
// parsed with parseSecretKey (nsec or 64 hex). Returns the key, or a
// one-line error naming the path and the reason.
std::variant<LoadedKey, std::string> readKeyFile(const crypto::Secp256k1Context& ctx,
                                                 const std::filesystem::path& path);

// Writes nsec + "\n" atomically with mode 0600: a temporary file in the
// same directory created O_CREAT|O_EXCL|O_NOFOLLOW with mode 0600, written,
// fsynced, renamed over `path`, then the directory fsynced. A symlink at
// `path` is refused. Returns a one-line error, or nullopt on success; on
// failure no temporary file is left behind.
[[nodiscard]] std::optional<std::string> writeKeyFile(const std::filesystem::path& path,
                                                      const crypto::SecretKey& key);

// Writes npub + "\n" atomically as writeKeyFile does. The mode is 0644 for
// a new file; an existing regular fips.pub keeps its mode (the reference
// applies 0644 at creation only, so an operator's chmod survives restarts).
[[nodiscard]] std::optional<std::string> writePubFile(const std::filesystem::path& path,
                                                      const crypto::PublicKey& key);

// The atomic write behind writeKeyFile, for any small file (fipsctl init's
// fips.yaml): a temporary file in the same directory (O_EXCL|O_NOFOLLOW,
// `mode`), written, fsynced, renamed over `path`, the directory fsynced. A
// symlink at `path` is refused. Returns a one-line error, or nullopt.
[[nodiscard]] std::optional<std::string> writeAtomically(const std::filesystem::path& path,
                                                         std::string_view content, mode_t mode);

// A fresh random secret key (OpenSSL RAND_bytes), for a new key file or an
// ephemeral identity. Throws std::runtime_error if the RNG fails.
crypto::SecretKey generateSecretKey(const crypto::Secp256k1Context& ctx);

}  // namespace fips::identity
