// SPDX-License-Identifier: MIT
// fipsctl keygen (see keygen-command.h). Runs in fipsctl; the target
// directory is operator input, and the key files are written by
// lib/identity/key-file.cpp, which refuses symlinks and writes atomically.
#include "ctl/keygen-command.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <system_error>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "ctl/report.h"
#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/fips-address.h"
#include "lib/identity/key-file.h"
#include "lib/identity/nip19.h"
#include "lib/identity/node-addr.h"

namespace fips::ctl {

namespace {

// identity --json's keys for `publicKey`.
nlohmann::ordered_json identityJson(const crypto::PublicKey& publicKey) {
  const identity::NodeAddr nodeAddr = identity::NodeAddr::fromPublicKey(publicKey);
  return {{"npub", identity::encodeNpub(publicKey)},
          {"node_addr", nodeAddr.toHex()},
          {"ipv6_addr", identity::FipsAddress::fromNodeAddr(nodeAddr).toString()}};
}

int flushStdout() {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) return reportError("cannot write to stdout");
  return 0;
}

int printToStdout(const crypto::SecretKey& keypair, bool json) {
  identity::SecretString nsec = identity::encodeNsec(keypair);
  if (json) {
    nlohmann::ordered_json out = identityJson(keypair.publicKey());
    out["nsec"] = std::string(nsec.view());
    std::string text = out.dump(2);
    std::fprintf(stdout, "%s\n", text.c_str());
    // The dumped copies held the nsec: overwrite them before they go.
    std::fill(text.begin(), text.end(), '\0');
    out["nsec"].get_ref<std::string&>().assign(nsec.view().size(), '\0');
    return flushStdout();
  }
  std::string npub = identity::encodeNpub(keypair.publicKey());
  std::fwrite(nsec.view().data(), 1, nsec.view().size(), stdout);
  std::fputc('\n', stdout);
  std::fprintf(stdout, "%s\n", npub.c_str());
  return flushStdout();
}

int writeFiles(const crypto::SecretKey& keypair, const KeygenOptions& options) {
  std::filesystem::path dir(options.dir);
  std::filesystem::path keyPath = dir / identity::KEY_FILE_NAME;
  struct stat st;
  // lstat rather than exists: a dangling symlink must not slip past.
  if (::lstat(keyPath.c_str(), &st) == 0 && !options.force) {
    return reportError(
        fmt::format("key file already exists: {} (use --force to overwrite)", keyPath.string()));
  }
  if (auto err = writeKeyPair(dir, keypair)) return reportError(*err);
  constexpr const char* NOTE =
      "NOTE: Set 'node.identity.persistent: true' in fips.yaml\n      for the daemon to use "
      "these keys (without it, it runs with a fresh identity\n      and leaves them alone).\n";
  if (options.json) {
    nlohmann::ordered_json out = identityJson(keypair.publicKey());
    out["key_file"] = keyPath.string();
    out["pub_file"] = (dir / identity::PUB_FILE_NAME).string();
    fmt::print("{}\n", out.dump(2));
    fmt::print(stderr, "{}", NOTE);
    return flushStdout();
  }
  // The npub alone on stdout, for PUB=$(fipsctl keygen -d DIR); the
  // reference prints it to stderr with the notes (see keygen-command.h).
  fmt::print("{}\n", identity::encodeNpub(keypair.publicKey()));
  fmt::print(stderr, "Key files written to: {}/\n\n{}", dir.string(), NOTE);
  return flushStdout();
}

}  // namespace

std::optional<std::string> makeKeyDir(const std::filesystem::path& dir) {
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return std::nullopt;
  std::filesystem::path trimmed = dir;
  if (!trimmed.has_filename() && trimmed.has_relative_path()) trimmed = trimmed.parent_path();
  std::filesystem::path parent = trimmed.parent_path();
  if (parent.empty()) parent = ".";
  if (!std::filesystem::is_directory(parent, ec)) {
    return fmt::format("cannot create directory {}: {} does not exist (create it first)",
                       dir.string(), parent.string());
  }
  if (!std::filesystem::create_directory(trimmed, ec) && ec) {
    return fmt::format("cannot create directory {}: {}", dir.string(), ec.message());
  }
  return std::nullopt;
}

std::optional<std::string> writeKeyPair(const std::filesystem::path& dir,
                                        const crypto::SecretKey& keypair) {
  if (auto err = makeKeyDir(dir)) return err;
  if (auto err = identity::writeKeyFile(dir / identity::KEY_FILE_NAME, keypair)) {
    return fmt::format("failed to write key file: {}", *err);
  }
  // The private key is on disk already, so a missing fips.pub only warns.
  if (auto err = identity::writePubFile(dir / identity::PUB_FILE_NAME, keypair.publicKey())) {
    reportWarning(fmt::format("failed to write pub file: {}", *err));
  }
  return std::nullopt;
}

CLI::App& addKeygenCommand(CLI::App& app, KeygenOptions& options) {
  options.dir = std::string(identity::SYSTEM_CONFIG_DIR);
  CLI::App* command = app.add_subcommand("keygen", "Generate a new FIPS identity keypair");
  command->add_option("-d,--dir", options.dir, "Output directory for fips.key and fips.pub")
      ->capture_default_str();
  command->add_flag("-f,--force", options.force, "Overwrite existing key files");
  command->add_flag("-s,--stdout", options.toStdout,
                    "Print nsec and npub to stdout instead of writing files");
  return *command;
}

int runKeygen(const KeygenOptions& options, const crypto::Secp256k1Context& ctx) {
  crypto::SecretKey keypair = identity::generateSecretKey(ctx);
  if (options.toStdout) return printToStdout(keypair, options.json);
  return writeFiles(keypair, options);
}

}  // namespace fips::ctl
