// SPDX-License-Identifier: MIT
// Default control socket path resolution (spec 08 §1), on a fake filesystem.
#include "privsep/control-path.h"

#include <set>

#include <doctest/doctest.h>

namespace fips::privsep {
namespace {

auto dirs(std::set<std::string> existing) {
  return [existing](const std::string& path) { return existing.contains(path); };
}

TEST_CASE("control socket path: /run/fips, then XDG_RUNTIME_DIR, then /tmp") {
  CHECK(resolveControlSocketPath(dirs({"/run/fips", "/run/user/1000"}), "/run/user/1000") ==
        "/run/fips/control.sock");
  CHECK(resolveControlSocketPath(dirs({"/run/user/1000"}), "/run/user/1000") ==
        "/run/user/1000/fips/control.sock");
  CHECK(resolveControlSocketPath(dirs({}), "/run/user/1000") == "/tmp/fips-control.sock");
  CHECK(resolveControlSocketPath(dirs({"/run/user/1000"}), std::nullopt) ==
        "/tmp/fips-control.sock");
}

TEST_CASE("managed parents are the resolver's private directories only") {
  CHECK(isManagedSocketParent("/run/fips", std::nullopt));
  CHECK(isManagedSocketParent("/run/user/7/fips", std::string("/run/user/7")));
  CHECK_FALSE(isManagedSocketParent("/tmp", std::string("/run/user/7")));
  CHECK_FALSE(isManagedSocketParent("/srv/fips", std::nullopt));
}

}  // namespace
}  // namespace fips::privsep
