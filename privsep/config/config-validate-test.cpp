// SPDX-License-Identifier: MIT
// Unit tests for bad values in fips.yaml: type, range, enum, shape and the
// cross-field rules, each message exactly "FILE:LINE: key.path: reason", and
// unknown keys. Test-only code.
#include <cctype>

#include <doctest/doctest.h>

#include "privsep/config/config-loader.h"
#include "privsep/config/test-util.h"

namespace fips::privsep::config {

using test::firstError;
using test::loadErrors;
using test::loadWarnings;

namespace {

const std::string NPUB = "npub1qmc3cvfz0yu2hx96nq3gp55zdan2qclealn7xshgr448d3nh6lks7zel98";
const std::string NSEC = "nsec1kypqxpq9qcrsszg2pvxq6rs0zqg3yyc5z5tpwxqergd3c8g7r7cqzeynpz";

std::string toUpper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string peer(const std::string& addresses) {
  return "peers:\n  - npub: " + NPUB + "\n    addresses:\n" + addresses;
}

}  // namespace

TEST_CASE("bad address:port, with the file and 1-based line") {
  const std::string yaml = "# c\n\ntransports:\n  udp:\n    bind_addr: \"1.2.3\"\n";
  CHECK(firstError(yaml) ==
        "fips.yaml:5: transports.udp.bind_addr: \"1.2.3\" is not an address:port");
  CHECK(firstError("transports:\n  udp:\n    lan:\n      bind_addr: x:1\n") ==
        "fips.yaml:4: transports.udp.lan.bind_addr: \"x:1\" is not an address:port");
  CHECK(firstError("dns:\n  bind_addr: \"[::1]:53\"\n") ==
        "fips.yaml:2: dns.bind_addr: \"[::1]:53\" is not an IP address");
}

TEST_CASE("wrong types") {
  CHECK(firstError("tun:\n  enabled: yes\n") ==
        "fips.yaml:2: tun.enabled: expected true or false, got \"yes\"");
  CHECK(firstError("tun:\n  mtu: big\n") ==
        "fips.yaml:2: tun.mtu: expected an unsigned 16-bit integer, got \"big\"");
  CHECK(
      firstError("tun:\n  mtu: \"1280\"\n") ==
      "fips.yaml:2: tun.mtu: expected an unsigned 16-bit integer, got the quoted string \"1280\"");
  CHECK(firstError("node:\n  limits: 5\n") ==
        "fips.yaml:2: node.limits: expected a map, got \"5\"");
  CHECK(
      firstError("node:\n  lookup:\n    attempt_timeouts_secs: [1, x]\n") ==
      "fips.yaml:3: node.lookup.attempt_timeouts_secs[1]: expected an unsigned integer, got \"x\"");
  CHECK(firstError("node:\n  rate_limit:\n    handshake_rate: fast\n") ==
        "fips.yaml:3: node.rate_limit.handshake_rate: expected a number, got \"fast\"");
  CHECK(firstError("tun:\n  name: [a]\n") ==
        "fips.yaml:2: tun.name: expected a string, got a list");
  CHECK(firstError("peers: {a: 1}\n") == "fips.yaml:1: peers: expected a list, got a map");
  CHECK(firstError("node:\n  tick_interval_secs: ~\n") ==
        "fips.yaml:2: node.tick_interval_secs: expected an unsigned integer, got null");
}

TEST_CASE("out of range integers") {
  CHECK(firstError("transports:\n  udp:\n    mtu: 70000\n") ==
        "fips.yaml:3: transports.udp.mtu: \"70000\" is out of range (0..65535)");
  CHECK(firstError("dns:\n  port: -1\n") ==
        "fips.yaml:2: dns.port: \"-1\" is out of range (0..65535)");
  CHECK(firstError(peer("      - {transport: udp, addr: \"1.2.3.4:1\", priority: 256}\n")) ==
        "fips.yaml:4: peers[0].addresses[0].priority: \"256\" is out of range (0..255)");
}

TEST_CASE("bad enums") {
  CHECK(firstError("node:\n  mmp:\n    mode: fast\n") ==
        "fips.yaml:3: node.mmp.mode: \"fast\" is not one of full, lightweight, minimal");
  CHECK(
      firstError("transports:\n  tor:\n    mode: bridge\n") ==
      "fips.yaml:3: transports.tor.mode: \"bridge\" is not one of socks5, control_port, directory");
  CHECK(firstError(peer("      - {transport: udp, addr: \"1.2.3.4:1\"}\n") +
                   "    connect_policy: sometimes\n") ==
        "fips.yaml:5: peers[0].connect_policy: \"sometimes\" is not one of auto_connect, "
        "on_demand, manual");
}

TEST_CASE("every bad value is reported, not just the first") {
  const std::vector<std::string> errors = loadErrors("tun:\n  mtu: x\ndns:\n  port: y\n");
  REQUIRE(errors.size() == 2);
  CHECK(errors[1] == "fips.yaml:4: dns.port: expected an unsigned 16-bit integer, got \"y\"");
}

TEST_CASE("required keys and duplicates") {
  CHECK(firstError("peers:\n  - alias: x\n    via_nostr: false\n") ==
        "fips.yaml:2: peers[0].npub: is required");
  CHECK(firstError("transports:\n  ethernet:\n    mtu: 1500\n") ==
        "fips.yaml:2: transports.ethernet.interface: is required");
  CHECK(firstError("gateway:\n  pool: \"fd01::/112\"\n") ==
        "fips.yaml:1: gateway.lan_interface: is required");
  CHECK(firstError("tun:\n  mtu: 1\n  mtu: 2\n") == "fips.yaml:3: tun.mtu: duplicate key");
}

TEST_CASE("aliases cannot multiply list entries without bound") {
  std::string yaml = "a: &a [";
  for (int i = 0; i < 400; ++i) yaml += "{transport: udp, addr: \"192.0.2.1:1\"},";
  yaml += "]\npeers: [";
  for (int i = 0; i < 300; ++i) yaml += "{npub: " + NPUB + ", addresses: *a},";
  yaml += "]\n";
  CHECK(firstError(yaml) ==
        "fips.yaml:1: peers[249].addresses[150]: the file holds more than 100000 list entries");
}

TEST_CASE("unknown keys are errors with their line and the nearest known key") {
  const std::vector<std::string> e = loadErrors(
      "node:\n  identity:\n    persistnet: true\ntun:\n  enabled: true\nfoo: 1\n"
      "transports:\n  udp:\n    bind_adr: \"0.0.0.0:1\"\n");
  REQUIRE(e.size() == 3);
  CHECK(e[0] == "fips.yaml:3: node.identity.persistnet: unknown key; did you mean 'persistent'?");
  CHECK(e[1] == "fips.yaml:6: foo: unknown key");
  CHECK(e[2] == "fips.yaml:9: transports.udp.bind_adr: unknown key; did you mean 'bind_addr'?");
}

TEST_CASE("nsec: accepted forms, checksum and scalar checked, the value never echoed") {
  CHECK(loadString("node:\n  identity:\n    nsec: " + NSEC + "\n").config.node.identity.nsec ==
        NSEC);
  CHECK(loadString("node:\n  identity:\n    nsec: \"" + std::string(64, 'A') + "\"\n")
            .config.node.identity.nsec);
  const std::string error = firstError("node:\n  identity:\n    nsec: \"nsec1secretvalue\"\n");
  CHECK(error.starts_with(
      "fips.yaml:3: node.identity.nsec: is not a usable nsec1... or 64-hex secret key: "));
  CHECK(error.find("secretvalue") == std::string::npos);
  // Uppercase is not an nsec1 prefix, so it is read as hex (as the reference).
  CHECK(firstError("node:\n  identity:\n    nsec: " + toUpper(NSEC) + "\n")
            .find("is not a usable nsec1... or 64-hex secret key") != std::string::npos);
  std::string badChecksum = NSEC;
  badChecksum.back() = badChecksum.back() == 'q' ? 'p' : 'q';
  CHECK(firstError("node:\n  identity:\n    nsec: " + badChecksum + "\n")
            .ends_with("secret key: bad bech32 checksum"));
  CHECK(firstError("node:\n  identity:\n    nsec: \"" + std::string(64, '0') + "\"\n")
            .find("node.identity.nsec") != std::string::npos);
}

TEST_CASE("tun.mtu below 1280, bad peer ports and non-finite rates are errors") {
  CHECK(firstError("tun:\n  mtu: 1279\n") ==
        "fips.yaml:2: tun.mtu: 1279 is below the IPv6 minimum link MTU of 1280");
  CHECK(firstError("transports:\n  udp:\n    mtu: 10\n") ==
        "fips.yaml:3: transports.udp.mtu: 10 is below the IPv6 minimum link MTU of 1280");
  CHECK(firstError("transports:\n  udp:\n    lan:\n      mtu: 0\n") ==
        "fips.yaml:4: transports.udp.lan.mtu: 0 is below the IPv6 minimum link MTU of 1280");
  CHECK(firstError("peers:\n  - npub: " + NPUB +
                   "\n    addresses:\n      - transport: udp\n        addr: \"1.2.3.4:70000\"\n")
            .ends_with("is not a host:port with a port from 1 to 65535"));
  CHECK(firstError("node:\n  rate_limit:\n    handshake_rate: .nan\n")
            .ends_with("is not a positive number"));
  CHECK(firstError("node:\n  rate_limit:\n    handshake_rate: -3.0\n")
            .ends_with("is not a positive number"));
}

TEST_CASE("peer entries the router would refuse: port 0, fd00::/8, one npub twice, bad alias") {
  CHECK(firstError(peer("      - transport: udp\n        addr: \"192.0.2.1:0\"\n")) ==
        "fips.yaml:5: peers[0].addresses[0].addr: \"192.0.2.1:0\" is not a host:port with a "
        "port from 1 to 65535");
  CHECK(firstError(peer("      - transport: udp\n        addr: \"node-b.example:0\"\n"))
            .ends_with("is not a host:port with a port from 1 to 65535"));
  CHECK(firstError(peer("      - transport: udp\n        addr: \"[fd12:3456::1]:2121\"\n")) ==
        "fips.yaml:5: peers[0].addresses[0].addr: \"[fd12:3456::1]:2121\" is in fd00::/8, the "
        "mesh's own addresses, not a reachable udp endpoint");
  CHECK(loadErrors(peer("      - transport: udp\n        addr: \"[fe80::1%2]:2121\"\n")) ==
        std::vector<std::string>{"<no error>"});
  const std::string twice = "peers:\n  - npub: " + NPUB +
                            "\n    addresses: [{transport: udp, addr: \"192.0.2.1:2121\"}]\n"
                            "  - npub: " +
                            NPUB +
                            "\n    addresses: [{transport: udp, addr: \"192.0.2.2:2121\"}]\n";
  CHECK(loadErrors(twice) == std::vector<std::string>{"fips.yaml:4: peers[1].npub: the same peer "
                                                      "as peers[0] (one entry per npub)"});
  const std::string aliased = "peers:\n  - npub: " + NPUB +
                              "\n    alias: -gw\n    addresses: [{transport: udp, addr: "
                              "\"192.0.2.1:2121\"}]\n";
  CHECK(loadErrors(aliased) ==
        std::vector<std::string>{"fips.yaml:3: peers[0].alias: \"-gw\" is not a valid alias: "
                                 "must not start with a hyphen"});
  CHECK(firstError("peers:\n  - npub: " + NPUB +
                   "\n    alias: npub1gw\n    addresses: [{transport: udp, addr: "
                   "\"192.0.2.1:2121\"}]\n")
            .find("must not start with 'npub1'") != std::string::npos);
}

TEST_CASE("other shapes: npub, interface names, user, tor auth, gateway") {
  CHECK(firstError("peers:\n  - npub: npub1short\n    via_nostr: true\nnode:\n  rendezvous:\n"
                   "    nostr: {enabled: true}\n")
            .starts_with("fips.yaml:2: peers[0].npub: \"npub1short\" is not a valid npub: "));
  std::string badChecksum = NPUB;
  badChecksum.back() = badChecksum.back() == 'q' ? 'p' : 'q';
  CHECK(firstError("peers:\n  - npub: " + badChecksum + "\n    via_nostr: true\n")
            .ends_with("is not a valid npub: bad bech32 checksum"));
  CHECK(firstError("tun:\n  name: \"a/b\"\n") ==
        "fips.yaml:2: tun.name: \"a/b\" is not an interface name");
  CHECK(firstError("node:\n  user: \"\"\n") == "fips.yaml:2: node.user: \"\" is not a user name");
  CHECK(firstError("transports:\n  tor:\n    control_auth: magic\n") ==
        "fips.yaml:3: transports.tor.control_auth: is not cookie, cookie:<path> or "
        "password:<secret>");
  CHECK(firstError("gateway:\n  pool: 10.0.0.0/8\n  lan_interface: eth0\n") ==
        "fips.yaml:2: gateway.pool: \"10.0.0.0/8\" is not an IPv6 CIDR");
  CHECK(firstError("gateway:\n  pool: fd01::/112\n  lan_interface: eth0\n  port_forwards:\n"
                   "    - {listen_port: 80, proto: tcp, target: \"10.0.0.1:80\"}\n") ==
        "fips.yaml:5: gateway.port_forwards[0].target: \"10.0.0.1:80\" is not an [IPv6]:port");
}

TEST_CASE("an unknown log level warns, an unknown peer transport is an error") {
  CHECK(loadWarnings("node:\n  log_level: verbose\n") ==
        std::vector<std::string>{
            "fips.yaml:2: node.log_level: \"verbose\" is not trace, debug, info, warn or error "
            "(using info)"});
  CHECK(loadErrors(peer("      - {transport: carrier-pigeon, addr: coop}\n")) ==
        std::vector<std::string>{"fips.yaml:4: peers[0].addresses[0].transport: "
                                 "\"carrier-pigeon\" is not a transport type (udp, tcp, "
                                 "ethernet, tor, nym, ble)"});
}

TEST_CASE("cross-field rules of Config::validate") {
  CHECK(firstError("transports:\n  udp:\n    advertise_on_nostr: true\n") ==
        "fips.yaml:3: transports.udp.advertise_on_nostr: is true but "
        "node.rendezvous.nostr.enabled is false");
  CHECK(firstError("peers:\n  - npub: " + NPUB + "\n    via_nostr: true\n") ==
        "fips.yaml:3: peers[0].via_nostr: is true but node.rendezvous.nostr.enabled is false");
  CHECK(firstError("peers:\n  - npub: " + NPUB + "\n") ==
        "fips.yaml:2: peers[0].addresses: a peer needs at least one address, or via_nostr: true");
  CHECK(firstError("node:\n  rendezvous:\n    nostr:\n      enabled: true\n      dm_relays: []\n"
                   "transports:\n  udp: {advertise_on_nostr: true}\n") ==
        "fips.yaml:5: node.rendezvous.nostr.dm_relays: must not be empty when a UDP transport "
        "advertises a NAT endpoint");
  CHECK(firstError("node:\n  native_api:\n    backlog: 0\n") ==
        "fips.yaml:3: node.native_api.backlog: must be at least 1");
  CHECK(firstError("node:\n  native_api:\n    pending_per_flow: 65\n") ==
        "fips.yaml:3: node.native_api.pending_per_flow: must be within 1..64");
  CHECK(firstError("node:\n  rekey:\n    after_secs: 15\n") ==
        "fips.yaml:3: node.rekey.after_secs: must be greater than 15 (the rekey jitter)");
  CHECK(firstError("node:\n  rekey:\n    after_messages: 0\n") ==
        "fips.yaml:3: node.rekey.after_messages: must be at least 1");
  CHECK(firstError("node:\n  rate_limit:\n    established_handshake_burst: 0\n") ==
        "fips.yaml:3: node.rate_limit.established_handshake_burst: must not be 0 (omit it to "
        "derive it from node.limits.max_peers)");
  CHECK(firstError("node:\n  rate_limit:\n    session_setup_rate: .inf\n") ==
        "fips.yaml:3: node.rate_limit.session_setup_rate: must be a finite number above 0");
  CHECK(firstError("node:\n  rendezvous:\n    nostr:\n      signal_ttl_secs: 180\n") ==
        "fips.yaml:4: node.rendezvous.nostr.signal_ttl_secs: signal_ttl_secs + 120 (300) must "
        "be less than replay_window_secs (300)");
  CHECK(firstError("node:\n  rendezvous:\n    nostr:\n      max_concurrent_offers_per_npub: 0\n")
            .starts_with("fips.yaml:4: node.rendezvous.nostr.max_concurrent_offers_per_npub: "
                         "must be within 1.."));
}

TEST_CASE("loopback UDP bind with an external udp peer") {
  const std::string base = "transports:\n  udp:\n    bind_addr: \"127.0.0.1:2121\"\n";
  CHECK(firstError(base + peer("      - {transport: udp, addr: \"192.0.2.1:2121\"}\n")) ==
        "fips.yaml:3: transports.udp.bind_addr: \"127.0.0.1:2121\" is loopback but "
        "peers[0].addresses[0] is a non-loopback udp address; bind 0.0.0.0:2121 or set "
        "outbound_only: true");
  CHECK(loadWarnings(base + peer("      - {transport: udp, addr: \"127.0.0.2:2121\"}\n")).empty());
  CHECK(loadString("transports:\n  udp:\n    bind_addr: \"127.0.0.1:2121\"\n    outbound_only: "
                   "true\n" +
                   peer("      - {transport: udp, addr: \"192.0.2.1:2121\"}\n"))
            .config.transports.udp.at("")
            .bindAddr == "0.0.0.0:0");
}

TEST_CASE("instance-qualified peer transports") {
  const std::string named = "transports:\n  udp:\n    lan: {bind_addr: \"0.0.0.0:2121\"}\n";
  CHECK(
      loadWarnings(named + peer("      - {transport: udp/lan, addr: \"192.0.2.1:1\"}\n")).empty());
  CHECK(firstError(named + peer("      - {transport: udp/wan, addr: \"192.0.2.1:1\"}\n")) ==
        "fips.yaml:7: peers[0].addresses[0].transport: \"udp/wan\": no udp instance named "
        "\"wan\" is configured");
  CHECK(firstError(peer("      - {transport: tcp/lan, addr: \"192.0.2.1:1\"}\n")) ==
        "fips.yaml:4: peers[0].addresses[0].transport: \"tcp/lan\": no tcp instance named "
        "\"lan\" is configured");
  const std::string tcpNamed = "transports:\n  tcp:\n    lan: {bind_addr: \"0.0.0.0:443\"}\n";
  CHECK(loadWarnings(tcpNamed + peer("      - {transport: tcp/lan, addr: \"192.0.2.1:443\"}\n"))
            .empty());
  CHECK(firstError(peer("      - {transport: tor/x, addr: \"192.0.2.1:1\"}\n")) ==
        "fips.yaml:4: peers[0].addresses[0].transport: \"tor/x\": only udp and tcp addresses may "
        "name an instance");
}

TEST_CASE("transports.tcp: mtu and connect_timeout_ms bounds, errors name file:line") {
  CHECK(firstError("transports:\n  tcp:\n    mtu: 1000\n") ==
        "fips.yaml:3: transports.tcp.mtu: 1000 is below the IPv6 minimum link MTU of 1280");
  CHECK(firstError("transports:\n  tcp:\n    wan:\n      connect_timeout_ms: 0\n") ==
        "fips.yaml:4: transports.tcp.wan.connect_timeout_ms: must be at least 1");
  CHECK(firstError("transports:\n  tcp:\n    bind_addr: \"0.0.0.0\"\n") ==
        "fips.yaml:3: transports.tcp.bind_addr: \"0.0.0.0\" is not an address:port");
}

TEST_CASE("node.control.json_compat: off by default, a bool, errors name file:line") {
  CHECK_FALSE(loadString("{}\n").config.node.control.jsonCompat);
  const LoadResult on = loadString("node:\n  control:\n    json_compat: true\n");
  CHECK(on.config.node.control.jsonCompat);
  CHECK(on.warnings.empty());
  CHECK(firstError("node:\n  control:\n    json_compat: yes\n") ==
        "fips.yaml:3: node.control.json_compat: expected true or false, got \"yes\"");
  CHECK(firstError("node:\n  control:\n    json_compat: [true]\n") ==
        "fips.yaml:3: node.control.json_compat: expected true or false, got a list");
}

TEST_CASE("node.control.socket_path longer than a sockaddr_un holds (107 bytes) is a warning") {
  const std::string longest = "/tmp/" + std::string(102, 's');  // 107 bytes: binds
  CHECK(loadWarnings("node:\n  control:\n    socket_path: " + longest + "\n").empty());
  const auto warnings = loadWarnings("node:\n  control:\n    socket_path: " + longest + "x\n");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].starts_with("fips.yaml:3: node.control.socket_path: \"/tmp/sss"));
  CHECK(warnings[0].ends_with(
      "\" is 108 bytes, longer than the 107 a Unix socket path holds: the node runs without a "
      "control socket"));
}

}  // namespace fips::privsep::config
