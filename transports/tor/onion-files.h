// SPDX-License-Identifier: MIT
// The onion service files: the key fips-transport-tor has tor create (ADD_ONION
// NEW:ED25519-V3) and hands back on every later start, so the node keeps its
// onion address: one line "ED25519-V3:<base64 of the 64-byte expanded
// key>" in a file of the node's state directory, mode 0600, replaced
// atomically; and the hostname file of a HiddenServiceDir (directory mode).
// Runs in fips-transport-tor; both files are checked like input.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace fips::transport::tor {

// The file's name in the node's state directory.
constexpr std::string_view ONION_KEY_FILE = "tor-onion.key";

// True if `key` is "ED25519-V3:" and 88 characters of base64 ending "==".
bool isOnionKey(std::string_view key);

// What loadOnionKey found.
struct OnionKeyLoad {
  std::optional<std::string> key;  // nullopt: no file, or `error`
  std::string error;               // "" unless the file exists and is unusable
  bool tooOpen = false;            // group or others may read it (still used)
};

// Reads the key at `path`. A missing file is no error (the first start).
OnionKeyLoad loadOnionKey(const std::filesystem::path& path);

// "" if saveOnionKey could write `path` (its directory exists and takes a
// new file), else why not. Checked before tor is asked for a new key, so a
// key is never made that cannot be kept.
std::string checkOnionKeyWritable(const std::filesystem::path& path);

// Writes `key` to `path` at mode 0600: a new file beside it, written and
// fsynced, renamed over `path`, the directory fsynced. Returns "" or why not.
std::string saveOnionKey(const std::filesystem::path& path, std::string_view key);

// What loadOnionHostname found.
struct OnionHostnameLoad {
  std::optional<std::string> hostname;  // "<56 base32>.onion"
  std::string error;                    // "" only with a hostname
};

// Reads the hostname file tor writes into a HiddenServiceDir (directory
// mode's transports.tor.directory_service.hostname_file): one onion v3
// name, trailing whitespace ignored. Tor writes it once the service is
// configured, so a missing file at start may be worth a retry.
OnionHostnameLoad loadOnionHostname(const std::filesystem::path& path);

}  // namespace fips::transport::tor
