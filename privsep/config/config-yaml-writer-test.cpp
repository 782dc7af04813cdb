// SPDX-License-Identifier: MIT
// Unit tests for toYaml: it prints every key, loads back to an equal Config,
// and never prints a secret. Test-only code.
#include "privsep/config/config-yaml-writer.h"

#include <limits>

#include <doctest/doctest.h>

#include "privsep/config/config-loader.h"

namespace fips::privsep::config {

namespace {

const std::string NPUB = "npub1qmc3cvfz0yu2hx96nq3gp55zdan2qclealn7xshgr448d3nh6lks7zel98";
// A second peer: one entry per npub.
const std::string NPUB2 = "npub1rxrujhhjz3vskulslxkutpwwfld9y59tyd8tu65v2x9wzjljn04qrpspgs";

Config roundTrip(const Config& c) {
  return loadString(toYaml(c), "printed.yaml").config;
}

// A config with every kind of value away from its default.
Config busyConfig() {
  Config c;
  c.node.identity.persistent = true;
  c.node.leafOnly = true;
  c.node.drainTimeoutSecs = 0;
  c.node.logLevel = "Debug";
  c.node.user = "mesh";
  c.node.rateLimit.establishedHandshakeBurst = 9;
  c.node.rateLimit.establishedHandshakeRate = 0.125;
  c.node.rateLimit.handshakeRate = std::numeric_limits<double>::infinity();
  c.node.lookup.attemptTimeoutsSecs = {3};
  c.node.rendezvous.nostr.enabled = true;
  c.node.rendezvous.nostr.policy = NostrPolicy::OPEN;
  c.node.rendezvous.nostr.dmRelays = {"wss://a \"quoted\"\\ relay"};
  c.node.rendezvous.nostr.advertRelays = {};
  c.node.rendezvous.lan.scope = "lab";
  c.node.control.socketPath = "/run/x.sock";
  c.node.sessionMmp.mode = MmpMode::MINIMAL;
  c.node.tree.parentHysteresis = 1e-7;
  c.tun = TunConfig{true, "fips9", 1400};
  c.dns = DnsConfig{false, "::", 53, 1};
  c.transports.udp["lan"].bindAddr = "[::]:2121";
  c.transports.udp["lan"].advertiseOnNostr = true;
  c.transports.udp["wan"].externalAddr = "198.51.100.1";
  c.transports.udp["odd name:"].mtu = 1500;
  c.transports.tcp[""].bindAddr = "0.0.0.0:8443";
  c.transports.ethernet[""].interface = "eth0";
  c.transports.ethernet[""].mtu = 1497;
  c.transports.tor[""].mode = TorMode::DIRECTORY;
  c.transports.nym["n"].mtu = 1000;
  c.transports.ble[""].psm = 0x80;
  PeerConfig p;
  p.npub = NPUB;
  p.alias = "core";
  p.addresses = {{"udp/lan", "192.0.2.1:2121", 5}, {"udp", "nat", 100}};
  p.connectPolicy = ConnectPolicy::ON_DEMAND;
  p.viaNostr = true;
  c.peers = {
      p, PeerConfig{NPUB2, std::nullopt, {{"tcp", "h:1", 1}}, ConnectPolicy::MANUAL, false, false}};
  GatewayConfig g;
  g.pool = "fd01::/112";
  g.lanInterface = "br0";
  g.portForwards = {{8080, Proto::UDP, "[fd12::10]:80"}};
  c.gateway = g;
  return c;
}

}  // namespace

TEST_CASE("defaults round-trip") {
  CHECK(roundTrip(Config{}) == Config{});
  CHECK(loadString(toYaml(Config{})).warnings.empty());
}

TEST_CASE("a config with every section set round-trips") {
  const Config c = busyConfig();
  const LoadResult r = loadString(toYaml(c), "printed.yaml");
  CHECK(r.config == c);
  CHECK(r.warnings.empty());
}

TEST_CASE("printing is stable: print(load(print(c))) == print(c)") {
  const std::string once = toYaml(busyConfig());
  CHECK(toYaml(loadString(once).config) == once);
}

TEST_CASE("every key is printed, unset optionals as ~") {
  const std::string text = toYaml(Config{});
  for (const char* needle :
       {"  drain_timeout_secs: ~\n", "  log_level: ~\n", "  user: \"fips\"\n",
        "    established_handshake_rate: ~\n", "    socket_path: ~\n",
        "    attempt_timeouts_secs: [1, 2, 4, 8]\n", "    handshake_rate: 10.0\n",
        "transports: {}\n", "peers: []\n", "# gateway: not configured\n",
        "      protocol_mismatch_cooldown_secs: 86400\n"}) {
    CHECK_MESSAGE(text.find(needle) != std::string::npos, needle);
  }
}

TEST_CASE("the nsec and a Tor password are never printed") {
  Config c;
  c.node.identity.nsec = std::string(64, 'f');
  c.transports.tor[""].controlAuth = "password:hunter2";
  const std::string text = toYaml(c);
  CHECK(text.find("ffffffff") == std::string::npos);
  CHECK(text.find("hunter2") == std::string::npos);
  CHECK(text.find("    # node.identity.nsec is set (not shown)\n") != std::string::npos);
  CHECK(text.find("    # control_auth is a password (not shown)\n") != std::string::npos);
  Config expected = c;
  expected.node.identity.nsec.reset();
  expected.transports.tor[""].controlAuth = "cookie";
  CHECK(roundTrip(c) == expected);
}

}  // namespace fips::privsep::config
