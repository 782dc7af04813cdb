// SPDX-License-Identifier: MIT
// Identity resolution (see resolve-identity.h). Runs in the supervisor as
// root at startup; inputs come from operator-controlled config, and the key
// directory's contents are checked by key-file.cpp.
#include "lib/identity/resolve-identity.h"

#include <sys/stat.h>
#include <system_error>

#include <fmt/format.h>

#include "lib/identity/key-file.h"
#include "lib/identity/nip19.h"

namespace fips::identity {

namespace {

struct KeyPaths {
  std::filesystem::path key;
  std::filesystem::path pub;
};

KeyPaths keyPathsIn(const std::filesystem::path& keyDir) {
  return {keyDir / KEY_FILE_NAME, keyDir / PUB_FILE_NAME};
}

// True if anything, even a dangling symlink, exists at `path`.
bool entryExists(const std::filesystem::path& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

// Best effort, as in the reference: a failure shows up when writing.
void createDirectories(const std::filesystem::path& dir) {
  std::error_code ignored;
  std::filesystem::create_directories(dir, ignored);
}

void writePubOrWarn(const std::filesystem::path& path, const crypto::PublicKey& key,
                    std::vector<std::string>& warnings) {
  if (auto err = writePubFile(path, key)) {
    warnings.push_back(fmt::format("failed to write the public key file: {}", *err));
  }
}

std::variant<ResolvedIdentity, std::string> resolveFromConfig(const crypto::Secp256k1Context& ctx,
                                                              std::string_view nsec) {
  auto parsed = parseSecretKey(ctx, nsec);
  if (!parsed.ok()) {
    return fmt::format("node.identity.nsec: {}", parsed.error().message);
  }
  return ResolvedIdentity{std::move(parsed.value()), IdentitySource::CONFIG, {}, {}};
}

std::variant<ResolvedIdentity, std::string> resolvePersistent(const crypto::Secp256k1Context& ctx,
                                                              const KeyPaths& paths) {
  std::vector<std::string> warnings;
  if (entryExists(paths.key)) {
    auto loaded = readKeyFile(ctx, paths.key);
    if (auto* err = std::get_if<std::string>(&loaded)) return std::move(*err);
    LoadedKey& key = std::get<LoadedKey>(loaded);
    if (key.warning) warnings.push_back(std::move(*key.warning));
    writePubOrWarn(paths.pub, key.secretKey.publicKey(), warnings);
    return ResolvedIdentity{std::move(key.secretKey), IdentitySource::KEY_FILE, paths.key,
                            std::move(warnings)};
  }
  crypto::SecretKey fresh = generateSecretKey(ctx);
  createDirectories(paths.key.parent_path());
  if (auto err = writeKeyFile(paths.key, fresh)) {
    return fmt::format(
        "node.identity.persistent is set but the new identity key cannot be saved ({}); "
        "refusing to start with an identity that would change on every start",
        *err);
  }
  writePubOrWarn(paths.pub, fresh.publicKey(), warnings);
  return ResolvedIdentity{std::move(fresh), IdentitySource::GENERATED, paths.key,
                          std::move(warnings)};
}

ResolvedIdentity resolveEphemeral(const crypto::Secp256k1Context& ctx, const KeyPaths& paths) {
  std::vector<std::string> warnings;
  if (entryExists(paths.key)) {
    warnings.push_back(fmt::format(
        "node.identity.persistent is not true: running with a fresh identity for this run only; "
        "{} is left as it is and not used (set node.identity.persistent: true to use it)",
        paths.key.string()));
  }
  return ResolvedIdentity{
      generateSecretKey(ctx), IdentitySource::EPHEMERAL, {}, std::move(warnings)};
}

}  // namespace

std::filesystem::path keyDirectoryFor(const std::vector<std::filesystem::path>& loadedConfigs) {
  if (loadedConfigs.empty()) return std::filesystem::path(SYSTEM_CONFIG_DIR);
  return loadedConfigs.back().parent_path();
}

std::variant<ResolvedIdentity, std::string> resolveIdentity(const crypto::Secp256k1Context& ctx,
                                                            std::optional<std::string_view> nsec,
                                                            bool persistent,
                                                            const std::filesystem::path& keyDir) {
  if (nsec) return resolveFromConfig(ctx, *nsec);
  KeyPaths paths = keyPathsIn(keyDir);
  if (persistent) return resolvePersistent(ctx, paths);
  return resolveEphemeral(ctx, paths);
}

}  // namespace fips::identity
