// SPDX-License-Identifier: MIT
// fipsctl identity (see identity-command.h). Runs in fipsctl; --nsec and the
// key file are operator input, parsed by lib/identity, which never throws
// on malformed keys.
#include "ctl/identity-command.h"

#include <cstdio>
#include <filesystem>
#include <variant>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "ctl/report.h"
#include "lib/identity/fips-address.h"
#include "lib/identity/key-file.h"
#include "lib/identity/nip19.h"
#include "lib/identity/node-addr.h"

namespace fips::ctl {

namespace {

// The secret key from --nsec or the key file, or the error to report.
std::variant<crypto::SecretKey, std::string> loadKey(const IdentityOptions& options,
                                                     const crypto::Secp256k1Context& ctx) {
  if (options.nsec) {
    auto parsed = identity::parseSecretKey(ctx, *options.nsec);
    if (!parsed.ok()) {
      return fmt::format("invalid --nsec: {}", parsed.error().message);
    }
    return std::move(parsed.value());
  }
  auto loaded = identity::readKeyFile(ctx, options.keyFile);
  if (auto* err = std::get_if<std::string>(&loaded)) return std::move(*err);
  identity::LoadedKey& key = std::get<identity::LoadedKey>(loaded);
  if (key.warning) reportWarning(*key.warning);
  return std::move(key.secretKey);
}

}  // namespace

CLI::App& addIdentityCommand(CLI::App& app, IdentityOptions& options) {
  options.keyFile =
      std::string(identity::SYSTEM_CONFIG_DIR) + "/" + std::string(identity::KEY_FILE_NAME);
  CLI::App* command =
      app.add_subcommand("identity", "Show the npub, node_addr and IPv6 address of a key");
  CLI::Option* nsec =
      command->add_option("--nsec", options.nsec, "Secret key: nsec1... or 64 hex characters");
  CLI::Option* keyFile =
      command->add_option("--key-file", options.keyFile, "Key file to read (fips.key)")
          ->capture_default_str();
  nsec->excludes(keyFile);
  command->add_flag("--json", options.json, "Print a JSON object");
  return *command;
}

int runIdentity(const IdentityOptions& options, const crypto::Secp256k1Context& ctx) {
  auto key = loadKey(options, ctx);
  if (auto* err = std::get_if<std::string>(&key)) return reportError(*err);
  crypto::PublicKey publicKey = std::get<crypto::SecretKey>(key).publicKey();
  identity::NodeAddr nodeAddr = identity::NodeAddr::fromPublicKey(publicKey);
  std::string npub = identity::encodeNpub(publicKey);
  std::string ipv6 = identity::FipsAddress::fromNodeAddr(nodeAddr).toString();
  if (options.json) {
    nlohmann::ordered_json out = {
        {"npub", npub}, {"node_addr", nodeAddr.toHex()}, {"ipv6_addr", ipv6}};
    fmt::print("{}\n", out.dump(2));
  } else {
    fmt::print("npub: {}\nnode_addr: {}\nipv6: {}\n", npub, nodeAddr.toHex(), ipv6);
  }
  if (std::fflush(stdout) != 0) return reportError("cannot write to stdout");
  return 0;
}

}  // namespace fips::ctl
