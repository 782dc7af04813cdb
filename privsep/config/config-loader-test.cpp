// SPDX-License-Identifier: MIT
// Unit tests for loading fips.yaml files: file-level failures, defaults, -c,
// the search path and the key directory. Test-only code.
#include "privsep/config/config-loader.h"

#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include "privsep/config/test-util.h"

namespace fips::privsep::config {

using test::firstError;
using test::loadErrors;
using test::TempDir;

namespace {

constexpr uid_t NOBODY_UID = 65534;

std::string fileError(const std::string& path) {
  try {
    loadFile(path);
  } catch (const ConfigError& e) {
    REQUIRE(e.messages().size() == 1);
    return e.messages().front();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("a file that is not YAML is one line naming the file") {
  TempDir dir;
  const std::string path = dir.write("fips.yaml", "node: {identity: [\n  - x: }\n");
  const std::string error = fileError(path);
  CHECK(error.starts_with(path + ": not valid YAML: "));
  CHECK(error.find('\n') == std::string::npos);
  CHECK(firstError("\t\x01\xff: :\n- ]]").starts_with("fips.yaml: "));
  // Made yaml-cpp 0.7's LoadAll loop forever (fuzzing).
  CHECK(firstError(",\xff"
                   "A\n- b\n")
            .starts_with("fips.yaml: "));
}

TEST_CASE("an empty or comment-only file is an error") {
  TempDir dir;
  CHECK(fileError(dir.write("empty.yaml", "")) ==
        dir.path() + "/empty.yaml: is empty (no settings)");
  CHECK(firstError("# only a comment\n") == "fips.yaml: is empty (no settings)");
}

TEST_CASE("a directory, a missing file and an unreadable file are errors") {
  TempDir dir;
  CHECK(fileError(dir.path()) == dir.path() + ": is a directory, not a YAML file");
  CHECK(fileError(dir.path() + "/nope.yaml") ==
        dir.path() + "/nope.yaml: No such file or directory");
  const std::string path = dir.write("secret.yaml", "tun: {enabled: true}\n");
  REQUIRE(chmod(path.c_str(), 0) == 0);
  // Root reads any mode: take an unprivileged effective uid for the check.
  const bool root = geteuid() == 0;
  if (root) {
    REQUIRE(chmod(dir.path().c_str(), 0755) == 0);
    REQUIRE(seteuid(NOBODY_UID) == 0);
  }
  const std::string error = fileError(path);
  if (root) REQUIRE(seteuid(0) == 0);
  CHECK(error == path + ": cannot be read: Permission denied");
}

TEST_CASE("the top level must be a map") {
  CHECK(firstError("- a\n- b\n") ==
        "fips.yaml: the top level is a list, expected a map of settings");
  CHECK(firstError("hello\n") ==
        "fips.yaml: the top level is \"hello\", expected a map of settings");
  CHECK(firstError("a: 1\n---\nb: 2\n") == "fips.yaml: holds more than one YAML document");
}

TEST_CASE("defaults are the reference's") {
  const LoadResult r = loadString("{}\n");
  const Config& c = r.config;
  CHECK(c == Config{});
  CHECK(r.warnings.empty());
  CHECK(r.loadedFiles.empty());
  CHECK(r.keyDir == "/etc/fips");
  CHECK_FALSE(c.tun.enabled);
  CHECK(c.tun.name == "fips0");
  CHECK(c.tun.mtu == 1280);
  CHECK(c.dns.enabled);
  CHECK(c.dns.bindAddr == "::1");
  CHECK(c.dns.port == 5354);
  CHECK(c.dns.ttl == 300);
  CHECK(c.node.user == "fips");
  CHECK_FALSE(c.node.identity.persistent);
  CHECK_FALSE(c.node.identity.nsec);
  CHECK(c.node.limits.maxPendingInbound == 1000);
  CHECK(c.node.rateLimit.handshakeRate == doctest::Approx(10.0));
  CHECK(c.node.lookup.attemptTimeoutsSecs == std::vector<std::uint64_t>{1, 2, 4, 8});
  CHECK(c.node.rendezvous.nostr.stunServers.size() == 3);
  CHECK(c.node.rekey.afterMessages == 65536);
  CHECK(c.transports == TransportsConfig{});
  CHECK(c.peers.empty());
  CHECK_FALSE(c.gateway);
}

TEST_CASE("transport instance defaults") {
  const Config c = loadString(
                       "transports:\n  udp: {}\n  tcp: {}\n  ethernet: {interface: eth0}\n"
                       "  tor: {}\n  nym: {}\n  ble: {}\n")
                       .config;
  CHECK(c.transports.udp.at("") == UdpConfig{});
  CHECK(c.transports.udp.at("").bindAddr == "0.0.0.0:2121");
  CHECK(c.transports.tcp.at("").mtu == 1400);
  CHECK_FALSE(c.transports.tcp.at("").bindAddr);
  CHECK(c.transports.ethernet.at("").ethertype == 0x2121);
  CHECK(c.transports.ethernet.at("").listen);
  CHECK(c.transports.tor.at("").mode == TorMode::SOCKS5);
  CHECK(c.transports.tor.at("").advertisedPort == 443);
  CHECK(c.transports.nym.at("").connectTimeoutMs == 300000);
  CHECK(c.transports.ble.at("").psm == 0x0085);
}

TEST_CASE("-c loads that file only, and the key dir is its directory") {
  TempDir dir;
  const std::string path = dir.write("etc/fips.yaml", "tun:\n  enabled: true\n  mtu: 1400\n");
  dir.write("fips.yaml", "tun:\n  mtu: 9000\n");
  const LoadResult r = loadFile(path);
  CHECK(r.loadedFiles == std::vector<std::string>{path});
  CHECK(r.keyDir == dir.path() + "/etc");
  CHECK(r.config.tun.enabled);
  CHECK(r.config.tun.mtu == 1400);
}

TEST_CASE("-c honours every node key; a relative file name keys to '.'") {
  TempDir dir;
  const std::string path = dir.write("fips.yaml",
                                     "node:\n  log_level: debug\n  limits:\n"
                                     "    max_peers: 7\n");
  const LoadResult r = loadFile(path);
  CHECK(r.config.node.logLevel == "debug");
  CHECK(r.config.node.limits.maxPeers == 7);
  char* cwd = getcwd(nullptr, 0);
  REQUIRE(cwd != nullptr);
  const std::string previous = cwd;
  free(cwd);
  REQUIRE(chdir(dir.path().c_str()) == 0);
  CHECK(loadFile("fips.yaml").keyDir == ".");
  REQUIRE(chdir(previous.c_str()) == 0);
}

TEST_CASE("search path order and environment") {
  CHECK(searchPaths(SearchEnv{"/home/u", std::nullopt}) ==
        std::vector<std::string>{"/etc/fips/fips.yaml", "/home/u/.config/fips/fips.yaml",
                                 "/home/u/.fips.yaml", "./fips.yaml"});
  CHECK(searchPaths(SearchEnv{"/home/u", "/xdg"}) ==
        std::vector<std::string>{"/etc/fips/fips.yaml", "/xdg/fips/fips.yaml", "/home/u/.fips.yaml",
                                 "./fips.yaml"});
  CHECK(searchPaths(SearchEnv{"/home/u", "relative"})[1] == "/home/u/.config/fips/fips.yaml");
  CHECK(searchPaths(SearchEnv{}) == std::vector<std::string>{"/etc/fips/fips.yaml", "./fips.yaml"});
}

TEST_CASE("loadPaths skips missing files and records what it loaded") {
  TempDir dir;
  const std::string a = dir.write("a/fips.yaml", "tun: {enabled: true}\n");
  const LoadResult r = loadPaths({dir.path() + "/missing.yaml", a, dir.path() + "/none/x.yaml"});
  CHECK(r.loadedFiles == std::vector<std::string>{a});
  CHECK(r.keyDir == dir.path() + "/a");
  const LoadResult none = loadPaths({dir.path() + "/missing.yaml"});
  CHECK(none.loadedFiles.empty());
  CHECK(none.keyDir == "/etc/fips");
  CHECK(none.config == Config{});
}

TEST_CASE("loadPaths fails on an existing file it cannot load") {
  TempDir dir;
  const std::string bad = dir.write("bad.yaml", "[1, 2]\n");
  CHECK(loadErrors("{}").front() == "<no error>");
  CHECK_THROWS_AS(loadPaths({bad}), ConfigError);
  CHECK_THROWS_WITH_AS(loadPaths({dir.path()}),
                       (dir.path() + ": is a directory, not a YAML file").c_str(), ConfigError);
}

TEST_CASE("wipeSecrets clears the nsec and a Tor password") {
  Config c;
  c.node.identity.nsec = std::string(64, 'a');
  c.transports.tor[""].controlAuth = "password:hunter2";
  c.transports.tor["b"].controlAuth = "cookie:/x";
  wipeSecrets(c);
  CHECK_FALSE(c.node.identity.nsec);
  CHECK(c.transports.tor[""].controlAuth == "password:");
  CHECK(c.transports.tor["b"].controlAuth == "cookie:/x");
}

}  // namespace fips::privsep::config
