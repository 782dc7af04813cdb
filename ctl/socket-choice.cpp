// SPDX-License-Identifier: MIT
// fipsctl's control socket choice (see socket-choice.h).
#include "ctl/socket-choice.h"

#include <cstdlib>

#include <fmt/format.h>

#include "privsep/config/config-error.h"
#include "privsep/config/config-loader.h"
#include "privsep/control-path.h"

#include "ctl/control-client.h"

namespace fips::ctl {

std::string chooseControlSocket(const SocketSources& sources) {
  if (!sources.flag.empty()) return sources.flag;
  if (!sources.configFile.empty()) {
    try {
      const auto loaded = privsep::config::loadFile(sources.configFile);
      if (loaded.config.node.control.socketPath) return *loaded.config.node.control.socketPath;
    } catch (const privsep::config::ConfigError& e) {
      throw ControlError(fmt::format("-c {}: {}", sources.configFile, e.what()));
    }
    return privsep::defaultControlSocketPath();
  }
  if (sources.env && !sources.env->empty()) return *sources.env;
  return privsep::defaultControlSocketPath();
}

SocketSources socketSourcesFromProcess(const std::string& flag, const std::string& configFile) {
  const char* env = std::getenv("FIPS_CONTROL_SOCKET");
  return {flag, configFile, env != nullptr ? std::optional<std::string>(env) : std::nullopt};
}

}  // namespace fips::ctl
