// SPDX-License-Identifier: MIT
// Unit tests for the "did you mean" suggestions of the fips.yaml loader.
// Test-only code.
#include "privsep/config/did-you-mean.h"

#include <doctest/doctest.h>

namespace fips::privsep::config {

TEST_CASE("edit distance counts one per insert, delete, change or swap") {
  CHECK(editDistance("persistent", "persistent") == 0);
  CHECK(editDistance("persistant", "persistent") == 1);
  CHECK(editDistance("persitent", "persistent") == 1);
  CHECK(editDistance("persistnet", "persistent") == 1);
  CHECK(editDistance("Persistent", "persistent") == 0);
  CHECK(editDistance("", "udp") == 3);
  CHECK(editDistance("udpp", "udp") == 1);
  CHECK(editDistance("kitten", "sitting") == 3);
  CHECK(editDistance(std::string(65, 'a'), "a") == 66);
}

TEST_CASE("the closest known name is suggested only when it is close") {
  const std::vector<std::string> identity = {"nsec", "persistent"};
  CHECK(closestName("persistant", identity) == "persistent");
  CHECK(closestName("nsek", identity) == "nsec");
  CHECK(closestName("colour", identity) == std::nullopt);
  CHECK(closestName("x", identity) == std::nullopt);
  const std::vector<std::string> types = {"udp", "tcp", "ethernet", "tor", "nym", "ble"};
  CHECK(closestName("udpp", types) == "udp");
  CHECK(closestName("ehternet", types) == "ethernet");
  CHECK(closestName("carrier-pigeon", types) == std::nullopt);
  CHECK(didYouMean("persistant", identity) == "; did you mean 'persistent'?");
  CHECK(didYouMean("zzz", identity).empty());
  CHECK(closestName("a", {}) == std::nullopt);
}

}  // namespace fips::privsep::config
