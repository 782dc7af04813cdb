// SPDX-License-Identifier: MIT
// fips: the supervisor. Runs as root and never reads network input. Reads
// and validates the config, resolves the node identity (key files), then
// starts fips-tun-helper, fips-router and the transport workers, each with
// only its slice of the config (ARCHITECTURE.md "Processes").
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <sys/prctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "privsep/config/config-loader.h"
#include "privsep/config/config-yaml-writer.h"
#include "privsep/log.h"
#include "privsep/supervisor/config-check.h"
#include "privsep/supervisor/identity-setup.h"
#include "privsep/supervisor/slices.h"
#include "privsep/supervisor/supervisor.h"

#include "fips-build-config.h"

namespace {

// Exit statuses (the reference's cli-fips: 0 ok, 1 any startup error).
constexpr int EXIT_OK = 0;
constexpr int EXIT_ERROR = 1;
constexpr int EXIT_USAGE = 2;  // a command-line error (clap's code, as the reference)

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"fips: FIPS mesh node (privilege-separated supervisor)", "fips"};
  std::optional<std::string> configFile;
  bool check = false;
  app.add_option("-c,--config", configFile, "Load only this config file (no search path)");
  app.add_flag("--check", check,
               "Check the config (every error and warning, as FILE:LINE: key: reason), print the "
               "effective merged config as YAML, and exit: 0 ok, 1 on any error");
  app.set_version_flag("-V,--version", std::string("fips ") + FIPS_VERSION);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return EXIT_USAGE;
  }

  ::prctl(PR_SET_NAME, "fips");
  fips::privsep::initLogging("fips", fips::privsep::effectiveLogLevel(spdlog::level::info));
  fips::privsep::warnOnBadLogEnv();
  fips::privsep::supervisor::SupervisorSettings settings;
  try {
    settings.loaded = fips::privsep::supervisor::loadCheckedConfig(configFile);
  } catch (const fips::privsep::config::ConfigError& e) {
    for (const auto& warning : e.warnings()) spdlog::warn("{}", warning);
    std::fprintf(stderr, "%s\n", e.what());
    return EXIT_ERROR;
  }
  for (const auto& warning : settings.loaded.warnings) spdlog::warn("{}", warning);
  if (check) {
    std::cout << fips::privsep::config::toYaml(settings.loaded.config) << std::flush;
    if (!std::cout) {
      std::fprintf(stderr, "fips: cannot write the configuration to stdout\n");
      return EXIT_ERROR;
    }
    return EXIT_OK;
  }
  auto level = fips::privsep::supervisor::configuredLogLevel(settings.loaded.config);
  spdlog::default_logger()->set_level(fips::privsep::effectiveLogLevel(level));
  if (::geteuid() != 0) {
    spdlog::error(
        "must run as root: it starts the privileged fips-tun-helper and switches the "
        "other processes to user '{}'",
        settings.loaded.config.node.user);
    return EXIT_ERROR;
  }
  settings.configFile = configFile;
  try {
    fips::privsep::supervisor::prepareIdentityAndUser(settings);
    fips::privsep::supervisor::Supervisor supervisor(std::move(settings));
    return supervisor.run();
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return EXIT_ERROR;
  }
}
