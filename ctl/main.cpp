// SPDX-License-Identifier: MIT
// fipsctl: the operator's command-line client. Local subcommands (keygen,
// identity) work on key files; the daemon subcommands talk to the router's
// control service over the control socket (control.capnp). Runs as the invoking user; everything on
// its command line is operator input and is validated before use.
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "ctl/cli-checks.h"
#include "ctl/daemon-commands.h"
#include "ctl/identity-command.h"
#include "ctl/init-command.h"
#include "ctl/keygen-command.h"
#include "ctl/report.h"
#include "fips-build-config.h"
#include "lib/crypto/secp256k1-context.h"

namespace {

// The deepest subcommand the command line named ("show" in "fipsctl show foo"),
// or app itself.
const CLI::App& deepestParsed(const CLI::App& app) {
  const CLI::App* at = &app;
  while (!at->get_subcommands().empty()) at = at->get_subcommands().front();
  return *at;
}

// CLI11 answers a word that names no subcommand with "A subcommand is
// required"; name the word instead, as the reference does ("unrecognized
// subcommand 'foo'"). Empty when the error is something else.
std::string unknownSubcommand(const CLI::App& app) {
  const CLI::App& at = deepestParsed(app);
  if (at.get_require_subcommand_min() == 0) return "";
  const std::vector<std::string> rest = app.remaining(true);
  if (rest.empty() || rest.front().starts_with("-")) return "";
  const std::string command = &at == &app ? "" : at.get_name() + " ";
  return "unrecognized subcommand '" + command + rest.front() + "' (see fipsctl " + command +
         "--help)";
}

// A command that needs a subcommand and got none ("fipsctl", "fipsctl
// show"): its help, listing what it can do, on stderr, and status 2 (a
// usage error, as CLI11's examples and argparse exit).
std::optional<int> missingSubcommand(const CLI::App& app) {
  const CLI::App& at = deepestParsed(app);
  if (at.get_require_subcommand_min() == 0 || !app.remaining(true).empty()) return std::nullopt;
  std::fputs(at.help().c_str(), stderr);
  return 2;
}

// Help and version go to stdout with status 0 (CLI11's own handling); a
// missing subcommand prints the help (status 2); anything else is one
// "fipsctl: <reason>" line and status 1.
int reportParseError(const CLI::App& app, const CLI::ParseError& error) {
  if (error.get_exit_code() == 0) return app.exit(error);
  if (auto status = missingSubcommand(app)) return *status;
  if (std::string unknown = unknownSubcommand(app); !unknown.empty()) {
    return fips::ctl::reportError(unknown);
  }
  return fips::ctl::reportError(error.what());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Control a running FIPS daemon", "fipsctl");
  app.set_version_flag("-V,--version", std::string("fipsctl ") + FIPS_VERSION);
  app.require_subcommand(1);
  fips::ctl::DaemonOptions daemon;
  app.add_option("-s,--socket", daemon.socketPath,
                 "Control socket path (default: -c's node.control.socket_path, else "
                 "$FIPS_CONTROL_SOCKET, else the system default)")
      ->check(fips::ctl::nonEmptyPath);
  app.add_option("-c,--config", daemon.configPath,
                 "fips.yaml of the node to talk to (its node.control.socket_path)")
      ->check(fips::ctl::nonEmptyPath);
  // Anywhere on the line: subcommands pass options they lack up to here.
  app.add_flag("--json", daemon.json, "Print one JSON document");
  app.fallthrough();

  fips::ctl::KeygenOptions keygen;
  fips::ctl::IdentityOptions identity;
  fips::ctl::InitOptions init;
  const CLI::App& initCommand = fips::ctl::addInitCommand(app, init);
  const CLI::App& keygenCommand = fips::ctl::addKeygenCommand(app, keygen);
  const CLI::App& identityCommand = fips::ctl::addIdentityCommand(app, identity);
  fips::ctl::addDaemonCommands(app, daemon);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return reportParseError(app, error);
  }

  try {
    if (auto status = fips::ctl::runDaemonCommand(daemon)) return *status;
    fips::crypto::Secp256k1Context ctx;
    keygen.json = daemon.json;
    init.json = daemon.json;
    if (initCommand.parsed()) return fips::ctl::runInit(init, ctx);
    if (keygenCommand.parsed()) return fips::ctl::runKeygen(keygen, ctx);
    identity.json = identity.json || daemon.json;
    if (identityCommand.parsed()) return fips::ctl::runIdentity(identity, ctx);
  } catch (const std::exception& error) {
    return fips::ctl::reportError(error.what());
  }
  return fips::ctl::reportError("no subcommand given");
}
