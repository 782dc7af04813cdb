// SPDX-License-Identifier: MIT
#include "privsep/host-name.h"

#include <string>
#include <vector>

#include <doctest/doctest.h>

using fips::privsep::aliasError;
using fips::privsep::HostPort;
using fips::privsep::isValidHostName;
using fips::privsep::MAX_HOST_NAME;
using fips::privsep::parseHostPort;

TEST_CASE("peer aliases and hosts-file names: one DNS label, not an npub") {
  for (const std::string& ok : std::vector<std::string>{
           "gateway", "core-vm", "a", "node1", "A", "GATEWAY", "a1b2c3", std::string(63, 'x')}) {
    CAPTURE(ok);
    CHECK_FALSE(aliasError(ok));
  }
  CHECK(aliasError("") == "empty hostname");
  CHECK(aliasError(std::string(64, 'x')) == "exceeds 63 characters");
  CHECK(aliasError("npub1foo")->find("npub1") != std::string::npos);
  CHECK(aliasError("NPUB1bar")->find("npub1") != std::string::npos);
  CHECK_FALSE(aliasError("npub"));
  CHECK(aliasError("-starts") == "must not start with a hyphen");
  CHECK(aliasError("ends-") == "must not end with a hyphen");
  CHECK(aliasError("has.dot") == "invalid character '.'");
  CHECK(aliasError("has_underscore") == "invalid character '_'");
}

TEST_CASE("host names: labels, characters and lengths") {
  CHECK(isValidHostName("node-b"));
  CHECK(isValidHostName("core-vm.tail65015.ts.net"));
  CHECK(isValidHostName("_srv.example."));
  CHECK(isValidHostName(std::string(63, 'a') + ".example"));
  CHECK_FALSE(isValidHostName(std::string(64, 'a') + ".example"));
  CHECK_FALSE(isValidHostName(""));
  CHECK_FALSE(isValidHostName("."));
  CHECK_FALSE(isValidHostName("a..b"));
  CHECK_FALSE(isValidHostName(".a"));
  CHECK_FALSE(isValidHostName("-a.b"));
  CHECK_FALSE(isValidHostName("a-.b"));
  CHECK_FALSE(isValidHostName("a b"));
  CHECK_FALSE(isValidHostName("a/b"));
  CHECK_FALSE(isValidHostName(std::string("a\0b", 3)));
  CHECK_FALSE(isValidHostName("fe80::1"));
  CHECK_FALSE(isValidHostName("höst"));
}

TEST_CASE("host names: 253 bytes is the limit, a trailing dot is extra") {
  std::string name;
  while (name.size() + 2 <= MAX_HOST_NAME) name += name.empty() ? "a" : ".a";
  name.resize(MAX_HOST_NAME);
  if (name.back() == '.') name.back() = 'b';
  REQUIRE(name.size() == MAX_HOST_NAME);
  CHECK(isValidHostName(name));
  CHECK(isValidHostName(name + "."));
  CHECK_FALSE(isValidHostName(name + "c"));
  CHECK_FALSE(isValidHostName(name + ".c"));
}

TEST_CASE("host:port") {
  CHECK(parseHostPort("node-b:2121") == HostPort{"node-b", 2121});
  CHECK(parseHostPort("a.example.:1") == HostPort{"a.example.", 1});
  CHECK_FALSE(parseHostPort("node-b"));
  CHECK_FALSE(parseHostPort("node-b:"));
  CHECK_FALSE(parseHostPort("node-b:0"));
  CHECK_FALSE(parseHostPort("node-b:65536"));
  CHECK_FALSE(parseHostPort("node-b:21x"));
  CHECK_FALSE(parseHostPort("node-b:+21"));
  CHECK_FALSE(parseHostPort(":2121"));
  CHECK_FALSE(parseHostPort("[::1]:2121"));
  CHECK_FALSE(parseHostPort("fe80::1:2121"));
  CHECK_FALSE(parseHostPort("bad name:2121"));
}
