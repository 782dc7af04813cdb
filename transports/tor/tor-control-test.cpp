// SPDX-License-Identifier: MIT
#include "transports/tor/tor-control.h"

#include <string>

#include <doctest/doctest.h>

using namespace fips::transport::tor;

namespace {

ControlReply reply(std::string_view text) {
  ControlReplyParser p;
  p.feed(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  auto r = p.next();
  REQUIRE(r);
  return *r;
}

ControlCookie sequence(uint8_t first) {
  ControlCookie c{};
  for (size_t i = 0; i < c.size(); ++i) c[i] = static_cast<uint8_t>(first + i);
  return c;
}

}  // namespace

TEST_CASE("tor control: quoted strings round-trip and octal escapes decode") {
  CHECK(quoteControlString("pa\"ss\\w\nd") == "\"pa\\\"ss\\\\w\\nd\"");
  CHECK(unquoteControlString("pa\\\"ss\\\\w\\nd") == "pa\"ss\\w\nd");
  CHECK(unquoteControlString("\\303\\251") == "\xc3\xa9");
  CHECK_FALSE(unquoteControlString("dangling\\"));
  CHECK_FALSE(unquoteControlString("\\q"));
  CHECK_FALSE(unquoteControlString("\\77"));
  CHECK_FALSE(unquoteControlString("\\777"));
}

TEST_CASE("tor control: keyword arguments with quoted values") {
  auto args = parseKeywordArgs(
      "NOTICE BOOTSTRAP PROGRESS=85 TAG=ap_conn SUMMARY=\"Connecting to a relay\"");
  REQUIRE(args);
  CHECK((*args)["PROGRESS"] == "85");
  CHECK((*args)["TAG"] == "ap_conn");
  CHECK((*args)["SUMMARY"] == "Connecting to a relay");
  CHECK_FALSE(args->contains("NOTICE"));
  CHECK_FALSE(parseKeywordArgs("A=\"unterminated"));
}

TEST_CASE("tor control: PROTOCOLINFO names methods, cookie file and version") {
  auto info =
      parseProtocolInfo(reply("250-PROTOCOLINFO 1\r\n"
                              "250-AUTH METHODS=COOKIE,SAFECOOKIE,HASHEDPASSWORD "
                              "COOKIEFILE=\"/run/tor/control.authcookie\"\r\n"
                              "250-VERSION Tor=\"0.4.9.11\"\r\n"
                              "250 OK\r\n"));
  REQUIRE(info);
  CHECK(info->authMethods == std::vector<std::string>{"COOKIE", "SAFECOOKIE", "HASHEDPASSWORD"});
  CHECK(info->has("SAFECOOKIE"));
  CHECK_FALSE(info->has("NULL"));
  CHECK(info->cookieFile == "/run/tor/control.authcookie");
  CHECK(info->torVersion == "0.4.9.11");
  CHECK_FALSE(parseProtocolInfo(reply("250-PROTOCOLINFO 1\r\n250 OK\r\n")));
  CHECK_FALSE(parseProtocolInfo(reply("513 No such version\r\n")));
}

TEST_CASE("tor control: SAFECOOKIE answers only a server that knows the cookie") {
  const ControlCookie cookie = sequence(0x00);
  const ControlCookie clientNonce = sequence(0x20);
  CHECK(
      authChallengeCommand(clientNonce) ==
      "AUTHCHALLENGE SAFECOOKIE 202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f");
  // Expected values from Python's hmac over cookie | client nonce | server nonce.
  auto challenge = parseAuthChallenge(
      reply("250 AUTHCHALLENGE "
            "SERVERHASH=3C8780AB52365C0D080750447E5F64DABC00428C6C434579C2043E18C1F85389 "
            "SERVERNONCE=404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F\r\n"));
  REQUIRE(challenge);
  CHECK(challenge->serverNonce == sequence(0x40));
  CHECK(safeCookieAuthenticate(cookie, clientNonce, *challenge) ==
        "AUTHENTICATE b47642df2d5abb84f69e6d02d41bed6b44aee33e69562528a82166fc98bc0b1e");
  auto forged = *challenge;
  forged.serverHash[0] ^= 1;
  CHECK_FALSE(safeCookieAuthenticate(cookie, clientNonce, forged));
  CHECK_FALSE(parseAuthChallenge(reply("250 AUTHCHALLENGE SERVERHASH=00 SERVERNONCE=00\r\n")));
}

TEST_CASE("tor control: cookie and password AUTHENTICATE lines") {
  CHECK(cookieAuthenticate(sequence(0)) ==
        "AUTHENTICATE 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
  CHECK(passwordAuthenticate("s3 \"x\"") == "AUTHENTICATE \"s3 \\\"x\\\"\"");
}

TEST_CASE("tor control: the status GETINFO reply") {
  CHECK(statusGetInfoCommand() ==
        "GETINFO status/bootstrap-phase status/circuit-established traffic/read traffic/written "
        "network-liveness version dormant net/listeners/socks");
  auto status = parseStatus(
      reply("250-status/bootstrap-phase=NOTICE BOOTSTRAP PROGRESS=100 TAG=done SUMMARY=\"Done\"\r\n"
            "250-status/circuit-established=1\r\n"
            "250-traffic/read=123456\r\n"
            "250-traffic/written=7890\r\n"
            "250-network-liveness=up\r\n"
            "250-version=0.4.9.11\r\n"
            "250-dormant=0\r\n"
            "250-net/listeners/socks=\"127.0.0.1:9050\" \"unix:/run/tor/socks\"\r\n"
            "250 OK\r\n"));
  REQUIRE(status);
  REQUIRE(status->bootstrap);
  CHECK(status->bootstrap->progress == 100);
  CHECK(status->bootstrap->tag == "done");
  CHECK(status->bootstrap->summary == "Done");
  CHECK(status->circuitEstablished);
  CHECK(status->trafficRead == 123456);
  CHECK(status->trafficWritten == 7890);
  CHECK(status->networkLiveness == "up");
  CHECK(status->version == "0.4.9.11");
  CHECK_FALSE(status->dormant);
  CHECK(status->socksListeners ==
        std::vector<std::string>{"127.0.0.1:9050", "unix:/run/tor/socks"});
  CHECK_FALSE(parseStatus(reply("552 Unrecognized key \"dormant\"\r\n")));
  CHECK_FALSE(parseBootstrapPhase("NOTICE BOOTSTRAP PROGRESS=101 TAG=x"));
  CHECK_FALSE(parseBootstrapPhase("NOTICE BOOTSTRAP TAG=x"));
}

TEST_CASE("tor control: ADD_ONION with a new key and with a saved one") {
  CHECK(addOnionCommand("NEW:ED25519-V3", {"443,127.0.0.1:8443"}, false) ==
        "ADD_ONION NEW:ED25519-V3 Port=443,127.0.0.1:8443");
  CHECK(addOnionCommand("ED25519-V3:abc", {"443,127.0.0.1:8443", "80,127.0.0.1:80"}, true) ==
        "ADD_ONION ED25519-V3:abc Flags=Detach Port=443,127.0.0.1:8443 Port=80,127.0.0.1:80");
  CHECK(delOnionCommand("abc") == "DEL_ONION abc");
  const std::string id = "abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrstuvwx";
  auto created = parseAddOnion(
      reply("250-ServiceID=" + id + "\r\n250-PrivateKey=ED25519-V3:KEY\r\n250 OK\r\n"));
  REQUIRE(created);
  CHECK(created->serviceId == id);
  CHECK(created->privateKey == "ED25519-V3:KEY");
  auto reused = parseAddOnion(reply("250-ServiceID=" + id + "\r\n250 OK\r\n"));
  REQUIRE(reused);
  CHECK(reused->privateKey.empty());
  CHECK_FALSE(parseAddOnion(reply("550 Onion address collision\r\n")));
  CHECK_FALSE(parseAddOnion(reply("250-ServiceID=short\r\n250 OK\r\n")));
}
