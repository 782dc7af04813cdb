// SPDX-License-Identifier: MIT
// fipsctl init's fips.yaml: the peers of the command line, the socket path
// rule, and a generated file that the loader `fips` uses takes with the
// intended values (fips0, persistent identity, DNS, UDP, control socket,
// peers) and no warning.
#include "ctl/init-config.h"

#include <string>
#include <variant>

#include <doctest/doctest.h>

#include "privsep/config/config-error.h"
#include "privsep/config/config-loader.h"

#include "lib/identity/test-util.h"

namespace fips::ctl {
namespace {

constexpr const char* NPUB = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";

TEST_CASE("init: --peer NPUB@HOST:PORT") {
  auto ok = parsePeerSpec(std::string(NPUB) + "@192.0.2.7:2121");
  REQUIRE(std::holds_alternative<InitPeer>(ok));
  CHECK(std::get<InitPeer>(ok).npub == NPUB);
  CHECK(std::get<InitPeer>(ok).addr == "192.0.2.7:2121");
  auto v6 = parsePeerSpec(std::string(NPUB) + "@[2001:db8::1]:2121");
  REQUIRE(std::holds_alternative<InitPeer>(v6));
  CHECK(std::get<InitPeer>(v6).addr == "[2001:db8::1]:2121");
  for (const std::string& bad :
       {std::string(NPUB), std::string(NPUB) + "@", std::string(NPUB) + "@host",
        std::string(NPUB) + "@host:", std::string(NPUB) + "@:2121", std::string("npub1x@h:1"),
        std::string(NPUB) + "@h\n:1"}) {
    CAPTURE(bad);
    auto result = parsePeerSpec(bad);
    REQUIRE(std::holds_alternative<std::string>(result));
    CHECK(std::get<std::string>(result).starts_with("--peer '"));
    CHECK(std::get<std::string>(result).ends_with("(expected NPUB@HOST:PORT)"));
  }
}

TEST_CASE("init: --dns ADDR:PORT") {
  using Dns = std::pair<std::string, uint16_t>;
  CHECK(std::get<Dns>(parseDnsSpec("[::1]:53")) == Dns{"::1", 53});
  CHECK(std::get<Dns>(parseDnsSpec("127.0.0.1:5354")) == Dns{"127.0.0.1", 5354});
  for (const char* bad : {"::1", "[::1]:", "[::1]:0", "[::1]:65536", "[::1]:5x", ":53", "[]:53"}) {
    CAPTURE(bad);
    REQUIRE(std::holds_alternative<std::string>(parseDnsSpec(bad)));
    CHECK(std::get<std::string>(parseDnsSpec(bad)).starts_with("--dns '"));
  }
}

TEST_CASE("init: the control socket is in DIR, except for /etc/fips") {
  CHECK(initSocketPath("/tmp/node-a") == "/tmp/node-a/control.sock");
  CHECK_FALSE(initSocketPath("/etc/fips").has_value());
  CHECK(unwritableCharacter("/tmp/a b") == std::nullopt);
  CHECK(unwritableCharacter("/tmp/a\nb").has_value());
}

InitSettings settings() {
  InitSettings s;
  s.dir = "/tmp/node \"a\"";
  s.npub = "npub1self";
  s.ipv6 = "fd00::1";
  s.listen = "10.0.0.1:2121";
  s.socketPath = "/tmp/node \"a\"/control.sock";
  s.dnsBind = "::";
  s.dnsPort = 53;
  const std::string other = identity::test::identityVectors()["valid"][1]["npub"];
  s.peers = {{NPUB, "10.0.0.2:2121"}, {other, "peer.example:2200"}};
  return s;
}

TEST_CASE("init: the generated file loads with what it says, and no warning") {
  const std::string yaml = initYaml(settings());
  auto loaded = privsep::config::loadString(yaml, "fips.yaml");
  CHECK(loaded.warnings.empty());
  const auto& c = loaded.config;
  CHECK(c.tun.enabled);
  CHECK(c.tun.name == "fips0");
  CHECK(c.node.identity.persistent);
  CHECK_FALSE(c.node.identity.nsec.has_value());
  CHECK(c.dns.enabled);
  CHECK(c.dns.bindAddr == "::");
  CHECK(c.dns.port == 53);
  CHECK(c.node.control.socketPath == "/tmp/node \"a\"/control.sock");
  REQUIRE(c.transports.udp.size() == 1);
  CHECK(c.transports.udp.begin()->second.bindAddr == "10.0.0.1:2121");
  REQUIRE(c.peers.size() == 2);
  CHECK(c.peers[0].npub == NPUB);
  REQUIRE(c.peers[1].addresses.size() == 1);
  CHECK(c.peers[1].addresses[0].transport == "udp");
  CHECK(c.peers[1].addresses[0].addr == "peer.example:2200");
  // Every section is explained for its reader.
  for (const char* comment :
       {"# The fips0 interface", "# The .fips DNS responder", "# Keep this node's identity",
        "# Nodes to link with", "# How this node reaches its peers", "# Start it:  sudo fips -c"}) {
    CAPTURE(comment);
    CHECK(yaml.find(comment) != std::string::npos);
  }
}

TEST_CASE("init: no peers and the default socket still load") {
  InitSettings s = settings();
  s.peers.clear();
  s.socketPath.reset();
  auto loaded = privsep::config::loadString(initYaml(s), "fips.yaml");
  CHECK(loaded.warnings.empty());
  CHECK(loaded.config.peers.empty());
  CHECK_FALSE(loaded.config.node.control.socketPath.has_value());
}

TEST_CASE("init: a listen address the loader refuses is caught before writing") {
  InitSettings s = settings();
  s.listen = "nonsense";
  CHECK_THROWS_AS(privsep::config::loadString(initYaml(s), "fips.yaml"),
                  privsep::config::ConfigError);
}

}  // namespace
}  // namespace fips::ctl
