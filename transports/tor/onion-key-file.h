// SPDX-License-Identifier: MIT
// The onion service key fips-transport-tor has tor create (ADD_ONION
// NEW:ED25519-V3) and hands back on every later start, so the node keeps its
// onion address: one line "ED25519-V3:<base64 of the 64-byte expanded
// key>" in a file of the node's state directory, mode 0600, replaced
// atomically. Runs in fips-transport-tor; the file is the node's own but
// is checked like input.
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

}  // namespace fips::transport::tor
