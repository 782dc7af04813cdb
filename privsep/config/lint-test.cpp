// SPDX-License-Identifier: MIT
// Unit tests for what `fips --check` must find in one run (issue #24): a
// misspelled key with a suggestion, every error of a file at once in line
// order, broken IP literals, unknown and unbuilt transports, and a config
// holding an nsec that group or others may read. Test-only code.
#include <filesystem>

#include <doctest/doctest.h>

#include "privsep/config/config-loader.h"
#include "privsep/config/test-util.h"

namespace fips::privsep::config {

using test::loadErrors;
using test::TempDir;

namespace {

const std::string NPUB = "npub1qmc3cvfz0yu2hx96nq3gp55zdan2qclealn7xshgr448d3nh6lks7zel98";
const std::string NSEC = "nsec1kypqxpq9qcrsszg2pvxq6rs0zqg3yyc5z5tpwxqergd3c8g7r7cqzeynpz";

std::string peerAt(const std::string& transport, const std::string& addr) {
  return "peers:\n  - npub: " + NPUB + "\n    addresses:\n      - transport: " + transport +
         "\n        addr: \"" + addr + "\"\n";
}

// The errors of loading `yaml` with a build that runs udp only.
std::vector<std::string> udpOnlyErrors(const std::string& yaml) {
  const BuildSupport udpOnly{{"udp"}};
  try {
    loadString(yaml, "fips.yaml", &udpOnly);
  } catch (const ConfigError& e) {
    return e.messages();
  }
  return {"<no error>"};
}

}  // namespace

TEST_CASE("a misspelled key is an error that suggests the right one") {
  CHECK(loadErrors("node:\n  identity:\n    persistant: true\n") ==
        std::vector<std::string>{
            "fips.yaml:3: node.identity.persistant: unknown key; did you mean 'persistent'?"});
  CHECK(loadErrors("tun:\n  enabeld: true\n") ==
        std::vector<std::string>{"fips.yaml:2: tun.enabeld: unknown key; did you mean 'enabled'?"});
  CHECK(
      loadErrors("trasnports:\n  udp: {}\n") ==
      std::vector<std::string>{"fips.yaml:1: trasnports: unknown key; did you mean 'transports'?"});
  CHECK(
      loadErrors(peerAt("udp", "192.0.2.1:2121") + "    aliass: gw\n") ==
      std::vector<std::string>{"fips.yaml:6: peers[0].aliass: unknown key; did you mean 'alias'?"});
}

TEST_CASE("every error of a file in one run, in line order, each with file:line") {
  const std::string yaml =
      "node:\n"                     // 1
      "  identity:\n"               // 2
      "    persistant: true\n"      // 3
      "tun:\n"                      // 4
      "  mtu: lots\n"               // 5
      "transports:\n"               // 6
      "  udp:\n"                    // 7
      "    bind_addr: \"1.2.3\"\n"  // 8
      "peers:\n"                    // 9
      "  - npub: " +
      NPUB +
      "\n"                                     // 10
      "    addresses:\n"                       // 11
      "      - transport: udpp\n"              // 12
      "        addr: \"192.0.2.1:2121\"\n"     // 13
      "      - transport: udp\n"               // 14
      "        addr: \"10.77.0.300:2121\"\n";  // 15
  CHECK(loadErrors(yaml) ==
        std::vector<std::string>{
            "fips.yaml:3: node.identity.persistant: unknown key; did you mean 'persistent'?",
            "fips.yaml:5: tun.mtu: expected an unsigned 16-bit integer, got \"lots\"",
            "fips.yaml:8: transports.udp.bind_addr: \"1.2.3\" is not an address:port",
            "fips.yaml:12: peers[0].addresses[0].transport: \"udpp\" is not a transport type (udp, "
            "tcp, ethernet, tor, nym, ble); did you mean 'udp'?",
            "fips.yaml:15: peers[0].addresses[1].addr: \"10.77.0.300:2121\": 10.77.0.300 is not a "
            "valid IPv4 address",
        });
}

TEST_CASE("the search path: the errors of every file in one run, in search order") {
  TempDir dir;
  const std::string first = dir.write("a.yaml", "tun:\n  enabled: true\n  nmae: x\n");
  const std::string broken = dir.write("b.yaml", "tun: [\n");
  const std::string last = dir.write("c.yaml", "dns:\n  port: many\n");
  std::vector<std::string> errors;
  try {
    loadPaths({first, broken, last});
  } catch (const ConfigError& e) {
    errors = e.messages();
  }
  REQUIRE(errors.size() == 3);
  CHECK(errors[0] == first + ":3: tun.nmae: unknown key; did you mean 'name'?");
  CHECK(errors[1].starts_with(broken + ": not valid YAML: "));
  CHECK(errors[2] == last + ":2: dns.port: expected an unsigned 16-bit integer, got \"many\"");
}

TEST_CASE("a value the parser refused is not reported again by the checks") {
  CHECK(loadErrors("peers:\n  - addresses: [{transport: udp, addr: \"192.0.2.1:2121\"}]\n") ==
        std::vector<std::string>{"fips.yaml:2: peers[0].npub: is required"});
  CHECK(loadErrors("gateway:\n  pool: fd01::/112\n") ==
        std::vector<std::string>{"fips.yaml:1: gateway.lan_interface: is required"});
}

TEST_CASE("digits and dots are an IPv4 literal, never a host name") {
  CHECK(loadErrors(peerAt("udp", "10.77.0.300:2121")) ==
        std::vector<std::string>{"fips.yaml:5: peers[0].addresses[0].addr: \"10.77.0.300:2121\": "
                                 "10.77.0.300 is not a valid IPv4 address"});
  CHECK(loadErrors(peerAt("udp", "10.77.0:2121"))
            .front()
            .ends_with("10.77.0 is not a valid IPv4 address"));
  CHECK(loadErrors(peerAt("udp", "[fe80::zz]:2121"))
            .front()
            .ends_with("fe80::zz is not a valid IPv6 address"));
  CHECK(loadErrors(peerAt("udp", "10.77.0.3:2121")) == std::vector<std::string>{"<no error>"});
  CHECK(loadErrors(peerAt("udp", "node-b.example:2121")) == std::vector<std::string>{"<no error>"});
  CHECK(loadErrors(peerAt("udp", "10.0.0.1.nip.io:2121")) ==
        std::vector<std::string>{"<no error>"});
  CHECK(loadErrors("transports:\n  tor:\n    socks5_addr: \"127.0.0.256:9050\"\n") ==
        std::vector<std::string>{"fips.yaml:3: transports.tor.socks5_addr: \"127.0.0.256:9050\" "
                                 "is not a host:port"});
}

TEST_CASE("an unknown transport name is an error with a suggestion") {
  CHECK(loadErrors(peerAt("udpp", "192.0.2.1:2121")) ==
        std::vector<std::string>{"fips.yaml:4: peers[0].addresses[0].transport: \"udpp\" is not a "
                                 "transport type (udp, tcp, ethernet, tor, nym, ble); did you "
                                 "mean 'udp'?"});
  CHECK(loadErrors("transports:\n  udpp:\n    bind_addr: \"0.0.0.0:2121\"\n") ==
        std::vector<std::string>{"fips.yaml:2: transports.udpp: unknown key; did you mean 'udp'?"});
}

TEST_CASE("what the build cannot run is an error when a build is given") {
  CHECK(udpOnlyErrors("transports:\n  udp: {}\n") == std::vector<std::string>{"<no error>"});
  CHECK(udpOnlyErrors("transports:\n  tcp:\n    bind_addr: \"0.0.0.0:443\"\n") ==
        std::vector<std::string>{
            "fips.yaml:2: transports.tcp: this build has no tcp transport (it runs: udp)"});
  CHECK(udpOnlyErrors(peerAt("tcp", "192.0.2.1:443")) ==
        std::vector<std::string>{"fips.yaml:4: peers[0].addresses[0].transport: \"tcp\": this "
                                 "build has no tcp transport (it runs: udp)"});
  CHECK(udpOnlyErrors("transports:\n  ethernet:\n    interface: eth0\n  ble: {}\n") ==
        std::vector<std::string>{
            "fips.yaml:2: transports.ethernet: this build has no ethernet transport (it runs: udp)",
            "fips.yaml:4: transports.ble: this build has no ble transport (it runs: udp)"});
  CHECK(udpOnlyErrors("gateway:\n  enabled: true\n  pool: fd01::/112\n  lan_interface: eth0\n") ==
        std::vector<std::string>{
            "fips.yaml:2: gateway.enabled: is true but this build has no fips-gateway"});
  CHECK(udpOnlyErrors("node:\n  rendezvous:\n    lan: {enabled: true}\n") ==
        std::vector<std::string>{"fips.yaml:3: node.rendezvous.lan.enabled: is true but this "
                                 "build has no LAN rendezvous"});
  // Without a build (fipsctl, the golden tests) the whole language is accepted.
  CHECK(loadErrors("transports:\n  tcp:\n    bind_addr: \"0.0.0.0:443\"\n") ==
        std::vector<std::string>{"<no error>"});
}

TEST_CASE("a config holding an nsec that group or others may read is warned about") {
  TempDir dir;
  const std::string path = dir.write("fips.yaml", "node:\n  identity:\n    nsec: " + NSEC + "\n");
  std::filesystem::permissions(path, std::filesystem::perms(0644));
  const LoadResult loose = loadFile(path);
  REQUIRE(loose.warnings.size() == 1);
  CHECK(loose.warnings[0] == path +
                                 ": holds node.identity.nsec but is open to group or others "
                                 "(mode 0644): chmod 600 " +
                                 path);
  CHECK(loose.warnings[0].find(NSEC) == std::string::npos);
  std::filesystem::permissions(path, std::filesystem::perms(0600));
  CHECK(loadFile(path).warnings.empty());
  const std::string plain = dir.write("plain.yaml", "tun:\n  enabled: true\n");
  std::filesystem::permissions(plain, std::filesystem::perms(0644));
  CHECK(loadFile(plain).warnings.empty());
}

}  // namespace fips::privsep::config
