// SPDX-License-Identifier: MIT
#include "transports/tor/tor-address.h"

#include <string>

#include <doctest/doctest.h>

using fips::transport::tor::parseTorAddress;
using fips::transport::tor::Socks5Auth;
using fips::transport::tor::Socks5Target;
using fips::transport::tor::torIsolationAuth;

namespace {

const std::string ONION = "abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrstuvwx.onion";

std::string errorOf(std::string_view text) {
  return parseTorAddress(text).error;
}

}  // namespace

TEST_CASE("tor address: accepted forms") {
  CHECK(parseTorAddress(ONION + ":443").target == Socks5Target{ONION, 443});
  CHECK(parseTorAddress("www." + ONION + ":80").target == Socks5Target{"www." + ONION, 80});
  const std::string upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGHIJKLMNOPQRSTUVWX.onion";
  CHECK(parseTorAddress(upper + ":443").target == Socks5Target{upper, 443});
  CHECK(parseTorAddress("peer.example.org:2121").target == Socks5Target{"peer.example.org", 2121});
  CHECK(parseTorAddress("192.0.2.1:2121").target == Socks5Target{"192.0.2.1", 2121});
  CHECK(parseTorAddress("[2001:db8::1]:2121").target == Socks5Target{"2001:db8::1", 2121});
}

TEST_CASE("tor address: rejected forms say why") {
  CHECK(errorOf("peer.example.org") == "expected host:port");
  CHECK(errorOf("peer.example.org:0") == "port is not 1-65535");
  CHECK(errorOf("peer.example.org:65536") == "port is not 1-65535");
  CHECK(errorOf("peer.example.org:44x") == "port is not 1-65535");
  CHECK(errorOf(":443") == "empty host");
  CHECK(errorOf("localhost:443") == "host name must be fully qualified (hold a dot)");
  CHECK(errorOf("bad_name!.org:443") == "invalid host name");
  CHECK(errorOf("[2001:db8::zz]:1") == "invalid IPv6 address in brackets");
  CHECK(errorOf("short.onion:443") == "onion label has 5 characters, a v3 address has 56");
  CHECK(errorOf("facebookcorewwwi.onion:443") ==
        "onion label has 16 characters, a v3 address has 56");
  CHECK(errorOf(std::string(56, '1') + ".onion:443") ==
        "onion label holds a character outside base32 (a-z, 2-7)");
  CHECK(errorOf("-x." + ONION + ":443") == "invalid subdomain before the onion label");
  CHECK(errorOf(std::string(250, 'a') + ":1") == "host longer than 249 bytes");
}

TEST_CASE("tor address: the onion hostname form of tor's hostname file") {
  using fips::transport::tor::isOnionV3Hostname;
  CHECK(isOnionV3Hostname(ONION));
  CHECK_FALSE(isOnionV3Hostname("www." + ONION));
  CHECK_FALSE(isOnionV3Hostname(ONION.substr(1)));
  CHECK_FALSE(isOnionV3Hostname(std::string(56, '1') + ".onion"));
  CHECK_FALSE(isOnionV3Hostname(ONION.substr(0, 56) + ".onio"));
}

TEST_CASE("tor address: isolation credentials are per host and port, and fit SOCKS5") {
  CHECK(torIsolationAuth({ONION, 443}) == Socks5Auth{"fips", ONION + ":443"});
  CHECK(torIsolationAuth({"2001:db8::1", 7}) == Socks5Auth{"fips", "[2001:db8::1]:7"});
  CHECK(torIsolationAuth({ONION, 443}) != torIsolationAuth({ONION, 444}));
  std::string longest(fips::transport::tor::TOR_MAX_HOST, 'a');
  CHECK(torIsolationAuth({longest, 65535}).password.size() <= 255);
}
