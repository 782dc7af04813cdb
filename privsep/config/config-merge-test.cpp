// SPDX-License-Identifier: MIT
// Unit tests for the search-path merge (the reference's Config::merge):
// what a later file overrides, what only sticks when true, and what a
// search-path file cannot change. Test-only code.
#include <fmt/format.h>

#include <doctest/doctest.h>

#include "privsep/config/config-loader.h"
#include "privsep/config/test-util.h"

namespace fips::privsep::config {

using test::TempDir;

namespace {

const std::string NPUB_A = "npub1qmc3cvfz0yu2hx96nq3gp55zdan2qclealn7xshgr448d3nh6lks7zel98";
const std::string NSEC_A = std::string(64, 'a');
const std::string NSEC_B = std::string(64, 'b');

}  // namespace

TEST_CASE("two search-path files merge with the reference's partial rules") {
  TempDir dir;
  const std::string system = dir.write("etc/fips/fips.yaml", fmt::format(R"(node:
  identity:
    nsec: "{}"
    persistent: true
  leaf_only: true
  user: fipsd
tun:
  enabled: true
  name: mesh0
  mtu: 1400
dns:
  enabled: false
  port: 53
transports:
  udp: {{bind_addr: "0.0.0.0:2121"}}
  tcp: {{bind_addr: "0.0.0.0:8443"}}
peers:
  - npub: {}
    addresses: [{{transport: udp, addr: "192.0.2.1:2121"}}]
gateway: {{pool: "fd01::/112", lan_interface: eth0}}
)",
                                                                         NSEC_A, NPUB_A));
  const std::string local = dir.write("fips.yaml", fmt::format(R"(node:
  identity:
    nsec: "{}"
    persistent: false
  leaf_only: false
tun:
  enabled: false
  mtu: 1300
dns:
  ttl: 60
transports:
  udp: {{bind_addr: "0.0.0.0:3000"}}
peers: []
)",
                                                               NSEC_B));
  const LoadResult r = loadPaths({system, dir.path() + "/absent.yaml", local});
  const Config& c = r.config;
  CHECK(r.loadedFiles == std::vector<std::string>{system, local});
  CHECK(r.keyDir == dir.path());
  CHECK(c.node.identity.nsec == NSEC_B);  // replaced when set
  CHECK(c.node.identity.persistent);      // only true sticks
  CHECK(c.node.leafOnly);                 // only true sticks
  CHECK(c.node.user == "fipsd");          // ours: taken when set
  CHECK(c.tun.enabled);                   // only true sticks
  CHECK(c.tun.name == "mesh0");           // kept: not set later
  CHECK(c.tun.mtu == 1300);               // replaced when set
  CHECK(c.dns.enabled);                   // always overwritten (default true)
  CHECK(c.dns.port == 53);
  CHECK(c.dns.ttl == 60);
  CHECK(c.transports.udp.at("").bindAddr == "0.0.0.0:3000");  // replaced wholesale
  CHECK(c.transports.tcp.at("").bindAddr == "0.0.0.0:8443");  // kept: not in the later file
  REQUIRE(c.peers.size() == 1);                               // an empty list does not replace
  CHECK(c.peers[0].npub == NPUB_A);
  CHECK(c.gateway);  // kept: absent later
}

TEST_CASE("node keys other than identity, leaf_only and user are dropped with a warning") {
  TempDir dir;
  const std::string a = dir.write("a.yaml",
                                  "node:\n  log_level: debug\n  limits:\n    max_peers: 3\n"
                                  "  identity: {persistent: true}\n");
  const LoadResult r = loadPaths({a});
  CHECK_FALSE(r.config.node.logLevel);
  CHECK(r.config.node.limits.maxPeers == 128);
  CHECK(r.config.node.identity.persistent);
  CHECK(r.warnings == std::vector<std::string>{
                          a + ":2: node.log_level is ignored in a search-path file (only "
                              "node.identity, node.leaf_only and node.user are merged; use -c "
                              "FILE to apply it)",
                          a + ":3: node.limits is ignored in a search-path file (only "
                              "node.identity, node.leaf_only and node.user are merged; use -c "
                              "FILE to apply it)"});
  // The same file through -c applies everything.
  CHECK(loadFile(a).config.node.limits.maxPeers == 3);
}

TEST_CASE("a later file without dns resets dns.enabled to true") {
  TempDir dir;
  const std::string a = dir.write("a.yaml", "dns: {enabled: false}\n");
  const std::string b = dir.write("b.yaml", "tun: {name: x0}\n");
  CHECK_FALSE(loadPaths({a}).config.dns.enabled);
  CHECK(loadPaths({a, b}).config.dns.enabled);
}

TEST_CASE("errors after a merge point at the file that set the value") {
  TempDir dir;
  const std::string a = dir.write("a.yaml", "tun: {name: ok0}\n");
  const std::string b = dir.write("b.yaml", "# b\ntransports:\n  udp:\n    bind_addr: nope\n");
  try {
    loadPaths({a, b});
    FAIL("expected a ConfigError");
  } catch (const ConfigError& e) {
    CHECK(e.messages() == std::vector<std::string>{
                              b + ":4: transports.udp.bind_addr: \"nope\" is not an address:port"});
  }
}

}  // namespace fips::privsep::config
