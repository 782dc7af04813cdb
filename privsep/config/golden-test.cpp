// SPDX-License-Identifier: MIT
// Golden tests (bgpd style): each tests/config/NAME.yaml, loaded with -c
// semantics, prints exactly tests/config/NAME.ok; and the packaged
// packaging/fips.yaml loads without warnings. Test-only code.
#include <algorithm>
#include <filesystem>

#include <doctest/doctest.h>

#include "privsep/config/config-loader.h"
#include "privsep/config/config-yaml-writer.h"
#include "privsep/config/test-util.h"

namespace fips::privsep::config {

TEST_CASE("golden configs print their .ok files") {
  std::vector<std::filesystem::path> inputs;
  for (const auto& entry : std::filesystem::directory_iterator(FIPS_CONFIG_TEST_DATA)) {
    if (entry.path().extension() == ".yaml") inputs.push_back(entry.path());
  }
  std::sort(inputs.begin(), inputs.end());
  REQUIRE(inputs.size() >= 4);
  for (const std::filesystem::path& input : inputs) {
    std::filesystem::path expected = input;
    expected.replace_extension(".ok");
    const LoadResult r = loadFile(input.string());
    CHECK_MESSAGE(toYaml(r.config) == test::readFile(expected.string()), input.string());
    Config printable = r.config;  // what toYaml can show: no nsec
    printable.node.identity.nsec.reset();
    CHECK_MESSAGE(loadString(toYaml(r.config)).config == printable, input.string());
  }
}

TEST_CASE("the packaged fips.yaml loads without warnings") {
  const LoadResult r = loadFile(FIPS_PACKAGED_CONFIG);
  CHECK(r.warnings.empty());
  const Config& c = r.config;
  CHECK(c.tun.enabled);
  CHECK(c.tun.name == "fips0");
  CHECK(c.tun.mtu == 1280);
  CHECK(c.dns.enabled);
  CHECK(c.node.identity.persistent);
  REQUIRE(c.transports.udp.count("") == 1);
  CHECK(c.transports.udp.at("").bindAddr == "0.0.0.0:2121");
}

}  // namespace fips::privsep::config
