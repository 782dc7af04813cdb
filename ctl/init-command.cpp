// SPDX-License-Identifier: MIT
// fipsctl init (see init-command.h). Runs in fipsctl; the directory, the
// addresses and the peers are operator input, checked before anything is
// written, and the written file is checked by the same loader `fips` uses.
#include "ctl/init-command.h"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <tuple>
#include <variant>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "privsep/config/config-error.h"
#include "privsep/config/config-loader.h"

#include "ctl/init-config.h"
#include "ctl/keygen-command.h"
#include "ctl/report.h"
#include "lib/identity/fips-address.h"
#include "lib/identity/key-file.h"
#include "lib/identity/nip19.h"
#include "lib/identity/node-addr.h"

namespace fips::ctl {

namespace {

namespace fs = std::filesystem;

constexpr mode_t CONFIG_FILE_MODE = 0600;

bool present(const fs::path& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;  // a dangling symlink counts
}

// The key in DIR/fips.key, or nullopt when there is none; an unreadable
// one is an error (init never replaces it).
std::variant<std::optional<crypto::PublicKey>, std::string> existingKey(
    const fs::path& keyPath, const crypto::Secp256k1Context& ctx) {
  if (!present(keyPath)) return std::optional<crypto::PublicKey>{};
  auto loaded = identity::readKeyFile(ctx, keyPath);
  if (auto* err = std::get_if<std::string>(&loaded)) {
    return fmt::format("{} (init never replaces an existing key; fix or move it)", *err);
  }
  auto& key = std::get<identity::LoadedKey>(loaded);
  if (key.warning) reportWarning(*key.warning);
  return std::optional<crypto::PublicKey>{key.secretKey.publicKey()};
}

// The settings from the command line, or an error line.
std::variant<InitSettings, std::string> settingsFrom(const InitOptions& o, const fs::path& dir) {
  InitSettings s;
  s.dir = dir.string();
  s.listen = o.listen;
  auto dns = parseDnsSpec(o.dns);
  if (auto* err = std::get_if<std::string>(&dns)) return *err;
  std::tie(s.dnsBind, s.dnsPort) = std::get<std::pair<std::string, uint16_t>>(dns);
  s.socketPath = o.socketPath.empty() ? initSocketPath(s.dir)
                                      : std::optional(fs::absolute(o.socketPath).string());
  for (const std::string* text : {&s.dir, &s.listen}) {
    if (auto c = unwritableCharacter(*text)) return fmt::format("'{}': {}", *text, *c);
  }
  if (s.socketPath) {
    if (auto c = unwritableCharacter(*s.socketPath)) return fmt::format("--socket: {}", *c);
  }
  for (const std::string& spec : o.peers) {
    auto peer = parsePeerSpec(spec);
    if (auto* err = std::get_if<std::string>(&peer)) return *err;
    s.peers.push_back(std::get<InitPeer>(std::move(peer)));
  }
  return s;
}

int printResult(const InitOptions& o, const InitSettings& s, bool reused) {
  const fs::path dir(s.dir);
  const std::string config = (dir / "fips.yaml").string();
  const std::string next[] = {fmt::format("sudo fips -c {}", config),
                              fmt::format("fipsctl -c {} status", config)};
  if (o.json) {
    const identity::NodeAddr addr =
        identity::NodeAddr::fromPublicKey(identity::decodeNpub(s.npub).value());
    nlohmann::ordered_json out{
        {"npub", s.npub},
        {"node_addr", addr.toHex()},
        {"ipv6_addr", s.ipv6},
        {"config_file", config},
        {"key_file", (dir / identity::KEY_FILE_NAME).string()},
        {"pub_file", (dir / identity::PUB_FILE_NAME).string()},
        {"key_reused", reused},
        {"socket_path", s.socketPath ? nlohmann::ordered_json(*s.socketPath) : nullptr},
        {"next", next},
    };
    fmt::print("{}\n", out.dump(2));
  } else {
    fmt::print("{} {}\n", reused ? "Kept the existing key" : "Wrote a new key",
               (dir / identity::KEY_FILE_NAME).string());
    fmt::print("Wrote {}\n\n", config);
    fmt::print("  npub     {}\n  address  {}\n  name     {}.fips\n\n", s.npub, s.ipv6, s.npub);
    fmt::print("Next:\n  {}\n  {}\n", next[0], next[1]);
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) return reportError("cannot write to stdout");
  return 0;
}

}  // namespace

CLI::App& addInitCommand(CLI::App& app, InitOptions& options) {
  options.dir = std::string(identity::SYSTEM_CONFIG_DIR);
  CLI::App* command =
      app.add_subcommand("init", "Write a new node's fips.yaml and key pair into a directory");
  command->add_option("-d,--dir", options.dir, "Directory for fips.yaml, fips.key and fips.pub")
      ->capture_default_str();
  command->add_option("--listen", options.listen, "UDP address:port to listen on")
      ->capture_default_str();
  command->add_option("--peer", options.peers, "A peer to link with: NPUB@HOST:PORT (repeatable)");
  command->add_option("--socket", options.socketPath,
                      "Control socket path (default: DIR/control.sock; the system default "
                      "for /etc/fips)");
  command
      ->add_option("--dns", options.dns,
                   "Address:port of the .fips DNS responder (port 53 to be the resolver)")
      ->capture_default_str();
  command->add_flag("-f,--force", options.force,
                    "Replace an existing fips.yaml (fips.key is never replaced)");
  return *command;
}

int runInit(const InitOptions& o, const crypto::Secp256k1Context& ctx) {
  std::error_code ec;
  fs::path dir = fs::absolute(o.dir, ec).lexically_normal();
  if (ec) return reportError(fmt::format("{}: {}", o.dir, ec.message()));
  if (!dir.has_filename() && dir.has_relative_path()) dir = dir.parent_path();
  const fs::path configPath = dir / "fips.yaml";
  const fs::path keyPath = dir / identity::KEY_FILE_NAME;
  if (present(configPath) && !o.force) {
    return reportError(fmt::format(
        "{} already exists (use --force to replace it; fips.key is kept)", configPath.string()));
  }
  auto settings = settingsFrom(o, dir);
  if (auto* err = std::get_if<std::string>(&settings)) return reportError(*err);
  InitSettings& s = std::get<InitSettings>(settings);

  auto existing = existingKey(keyPath, ctx);
  if (auto* err = std::get_if<std::string>(&existing)) return reportError(*err);
  const std::optional<crypto::PublicKey> kept =
      std::get<std::optional<crypto::PublicKey>>(existing);
  std::optional<crypto::SecretKey> fresh;
  if (!kept) fresh = identity::generateSecretKey(ctx);
  const crypto::PublicKey& publicKey = kept ? *kept : fresh->publicKey();
  s.npub = identity::encodeNpub(publicKey);
  s.ipv6 =
      identity::FipsAddress::fromNodeAddr(identity::NodeAddr::fromPublicKey(publicKey)).toString();

  const std::string yaml = initYaml(s);
  try {
    (void)privsep::config::loadString(yaml, configPath.string());
  } catch (const privsep::config::ConfigError& e) {
    return reportError(fmt::format("the config would not load, nothing written:\n{}", e.what()));
  }
  if (fresh) {
    if (auto err = writeKeyPair(dir, *fresh)) return reportError(*err);
  } else if (!present(dir / identity::PUB_FILE_NAME)) {
    if (auto err = identity::writePubFile(dir / identity::PUB_FILE_NAME, publicKey)) {
      reportWarning(fmt::format("failed to write pub file: {}", *err));
    }
  }
  if (auto err = identity::writeAtomically(configPath, yaml, CONFIG_FILE_MODE)) {
    return reportError(fmt::format("failed to write {}: {}", configPath.string(), *err));
  }
  return printResult(o, s, kept.has_value());
}

}  // namespace fips::ctl
