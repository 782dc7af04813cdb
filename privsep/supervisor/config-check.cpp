// SPDX-License-Identifier: MIT
// The supervisor's config check (see config-check.h).
#include "privsep/supervisor/config-check.h"

#include <fmt/format.h>

#include "privsep/config/secret-file-mode.h"

#include "lib/identity/key-file.h"

namespace fips::privsep::supervisor {

const config::BuildSupport& thisBuild() {
  static const config::BuildSupport build{{"udp", "tcp"}};
  return build;
}

config::LoadResult loadCheckedConfig(const std::optional<std::string>& file) {
  config::LoadResult loaded;
  if (file) {
    loaded = config::loadFile(*file, &thisBuild());
  } else {
    const std::vector<std::string> paths = config::searchPaths(config::searchEnvFromProcess());
    loaded = config::loadPaths(paths, &thisBuild());
    if (loaded.loadedFiles.empty()) {
      throw config::ConfigError(
          {fmt::format("no config file found (searched {}): write one at one of these paths "
                       "(`fipsctl init` makes one in /etc/fips), or give -c FILE",
                       fmt::join(paths, ", "))});
    }
  }
  const std::string key = fmt::format("{}/{}", loaded.keyDir, identity::KEY_FILE_NAME);
  if (auto loose = config::looseSecretFileWarning(key, "the node's secret key")) {
    loaded.warnings.push_back(std::move(*loose));
  }
  return loaded;
}

}  // namespace fips::privsep::supervisor
