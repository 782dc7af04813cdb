// SPDX-License-Identifier: MIT
// Hostname rules, the hosts-file format and peer aliases (spec 05 §5).
#include "router/dns/host-map.h"

#include "lib/identity/nip19.h"
#include "router/dns/dns-test-util.h"

namespace fips::router::dns {
namespace {

using identity::test::contains;
using test::vectorIdentity;

TEST_CASE("insert validates the npub; lookups ignore case; later inserts win") {
  const auto [npub0, ip0] = vectorIdentity(0);
  const auto [npub1, ip1] = vectorIdentity(1);
  HostMap map;
  CHECK(contains(*map.insert("gateway", "not-an-npub"), "invalid npub 'not-an-npub'"));
  CHECK(map.empty());
  CHECK_FALSE(map.insert("Gateway", npub0));
  REQUIRE(map.find("GATEWAY"));
  CHECK(identity::encodeNpub(*map.find("gateway")) == npub0);
  CHECK_FALSE(map.insert("gateway", npub1));
  CHECK(map.size() == 1);
  CHECK(identity::encodeNpub(*map.find("gateway")) == npub1);
  CHECK(map.find("other") == nullptr);
}

TEST_CASE("hosts file: comments, blank lines, whitespace; bad lines skipped naming file:line") {
  const auto [npub0, ip0] = vectorIdentity(0);
  const auto [npub1, ip1] = vectorIdentity(1);
  const std::string text =
      "# A comment\n"
      "  # indented comment\n"
      "\t gateway \t " +
      npub0 +
      " \t \r\n"
      "\n"
      "bad_host " +
      npub0 +
      "\n"
      "too many fields here\n"
      "lonely\n"
      "good-host " +
      npub1 +
      "\n"
      "broken npub1nope\n"
      "npub1x " +
      npub1;
  std::vector<std::string> warnings;
  auto map = parseHostsFile(text, "/etc/fips/hosts", warnings);
  CHECK(map.size() == 2);
  CHECK(map.find("gateway"));
  CHECK(map.find("good-host"));
  REQUIRE(warnings.size() == 5);
  CHECK(contains(warnings[0], "/etc/fips/hosts:5: invalid hostname 'bad_host'"));
  CHECK(contains(warnings[1], "/etc/fips/hosts:6: expected 'hostname npub'"));
  CHECK(contains(warnings[2], "/etc/fips/hosts:7: expected 'hostname npub'"));
  CHECK(contains(warnings[3], "/etc/fips/hosts:9: invalid npub 'npub1nope'"));
  CHECK(contains(warnings[4], "/etc/fips/hosts:10: invalid hostname 'npub1x'"));
}

TEST_CASE("hosts file that is not UTF-8: no entries, one warning") {
  const auto [npub0, ip0] = vectorIdentity(0);
  std::vector<std::string> warnings;
  auto map = parseHostsFile("gateway " + npub0 + "\n# \xff\n", "h", warnings);
  CHECK(map.empty());
  CHECK(warnings.size() == 1);
}

TEST_CASE("peer aliases: invalid ones skipped with a warning; merge lets the file win") {
  const auto [npub0, ip0] = vectorIdentity(0);
  const auto [npub1, ip1] = vectorIdentity(1);
  std::vector<std::string> warnings;
  auto base = hostMapFromPeers({{"core", npub0}, {"has space", npub0}, {"gw", npub0}}, warnings);
  CHECK(base.size() == 2);
  REQUIRE(warnings.size() == 1);
  CHECK(contains(warnings[0], "peer alias 'has space'"));
  auto file = parseHostsFile("gw " + npub1 + "\n", "h", warnings);
  base.merge(file);
  CHECK(identity::encodeNpub(*base.find("gw")) == npub1);
  CHECK(identity::encodeNpub(*base.find("core")) == npub0);
}

// The node address of a valid npub.
identity::NodeAddr addrOf(const std::string& npub) {
  return identity::NodeAddr::fromPublicKey(identity::decodeNpub(npub).value());
}

TEST_CASE("reverse lookup: a node's lower-cased name; the last one, the file's after a merge") {
  const auto [npub0, ip0] = vectorIdentity(0);
  const auto [npub1, ip1] = vectorIdentity(1);
  std::vector<std::string> warnings;
  auto map = hostMapFromPeers({{"Bob", npub0}}, warnings);
  REQUIRE(map.nameOf(addrOf(npub0)));
  CHECK(*map.nameOf(addrOf(npub0)) == "bob");
  CHECK(map.nameOf(addrOf(npub1)) == nullptr);
  map.merge(parseHostsFile("bobby " + npub0 + "\nalice " + npub1 + "\nAlicia " + npub1 + "\n", "h",
                           warnings));
  CHECK(*map.nameOf(addrOf(npub0)) == "bobby");
  CHECK(*map.nameOf(addrOf(npub1)) == "alicia");
  CHECK(map.names().size() == 2);
  CHECK(identity::encodeNpub(*map.find("bob")) == npub0);
  CHECK(warnings.empty());
}

TEST_CASE("a name given twice: the later line wins, is warned of, and shows on one node only") {
  const auto [npub0, ip0] = vectorIdentity(0);
  const auto [npub1, ip1] = vectorIdentity(1);
  std::vector<std::string> warnings;
  auto map = parseHostsFile("bravo " + npub0 + "\nbravo " + npub1 + "\n", "h", warnings);
  CHECK(identity::encodeNpub(*map.find("bravo")) == npub1);
  CHECK(*map.nameOf(addrOf(npub1)) == "bravo");
  CHECK(map.nameOf(addrOf(npub0)) == nullptr);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "h:2: 'bravo' named another npub on an earlier line: this line wins");
  // A file's name re-pointing an alias's: the alias's node loses the name.
  auto aliases = hostMapFromPeers({{"gw", npub0}}, warnings);
  aliases.merge(parseHostsFile("gw " + npub1 + "\n", "h", warnings));
  CHECK(aliases.nameOf(addrOf(npub0)) == nullptr);
  CHECK(*aliases.nameOf(addrOf(npub1)) == "gw");
}

}  // namespace
}  // namespace fips::router::dns

namespace fips::router::dns {
namespace {

TEST_CASE("the shipped packaging/hosts parses without a warning") {
  const std::string path = std::string(FIPS_TEST_VECTORS) + "/../../packaging/hosts";
  const std::string text = identity::test::readText(path);
  REQUIRE_FALSE(text.empty());
  std::vector<std::string> warnings;
  auto map = parseHostsFile(text, path, warnings);
  CHECK(warnings.empty());
  CHECK(map.size() == 8);
  CHECK(map.find("test-us01"));
}

}  // namespace
}  // namespace fips::router::dns
