// SPDX-License-Identifier: MIT
// The hosts file parser: valid lines, comments, bad names and npubs skipped,
// case-insensitive lookup, a missing file.
#include "router/identity/host-map.h"

#include <fstream>

#include <doctest/doctest.h>

#include "router/identity/test-util.h"

namespace fips::router::identity {
namespace {

constexpr const char* NPUB = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";

TEST_CASE("hosts: names, comments and malformed lines") {
  const std::string text = std::string("# comment\n\ncore-vm ") + NPUB + "\nbad_name " + NPUB +
                           "\nnpub1x " + NPUB + "\nthree fields " + NPUB +
                           "\nnotkey npub1qqqq\n  Gateway   " + NPUB + "  \n";
  const auto hosts = parseHosts(text);
  CHECK(hosts.size() == 2);
  CHECK(hosts.at("core-vm") == NPUB);
  CHECK(hosts.at("gateway") == NPUB);
}

TEST_CASE("hosts: hostname rule") {
  CHECK(validHostname("a"));
  CHECK(validHostname("node-1"));
  CHECK_FALSE(validHostname(""));
  CHECK_FALSE(validHostname("-a"));
  CHECK_FALSE(validHostname("a-"));
  CHECK_FALSE(validHostname("NPUB1abc"));
  CHECK_FALSE(validHostname(std::string(64, 'a')));
  CHECK_FALSE(validHostname("a.b"));
}

TEST_CASE("hosts: lookup in a file") {
  test::TempDir dir;
  const std::string path = (dir.path() / "hosts").string();
  std::ofstream(path) << "Core-VM " << NPUB << "\n";
  CHECK(lookupHost(path, "core-vm") == std::optional<std::string>(NPUB));
  CHECK(lookupHost(path, "CORE-VM") == std::optional<std::string>(NPUB));
  CHECK_FALSE(lookupHost(path, "other"));
  CHECK_FALSE(lookupHost((dir.path() / "missing").string(), "core-vm"));
}

}  // namespace
}  // namespace fips::router::identity
