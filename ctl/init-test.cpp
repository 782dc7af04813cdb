// SPDX-License-Identifier: MIT
// Black-box tests of `fipsctl init` (files, modes, what it prints, what it
// refuses, a key never replaced) and of which control socket fipsctl
// picks (-s > -c CONFIG > $FIPS_CONTROL_SOCKET > default). Test-only; runs
// the fipsctl binary in temporary directories, no daemon.
#include <filesystem>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ctl/fipsctl-run.h"
#include "lib/identity/test-util.h"

namespace fips::ctl {
namespace {

using identity::test::fileMode;
using identity::test::readText;
using identity::test::TempDir;
using identity::test::writeText;
using test::isOneErrorLine;
using test::runFipsctl;
using test::RunResult;

constexpr const char* PEER = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";

TEST_CASE("fipsctl init: fips.yaml and the key pair, 0600, and the next commands") {
  TempDir tmp;
  const std::string d = (tmp.path() / "node-a").string();
  RunResult r =
      runFipsctl("init -d " + d + " --listen 10.1.0.1:2121 --peer " + PEER + "@10.1.0.2:2121");
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  CHECK(fileMode(d + "/fips.yaml") == 0600);
  CHECK(fileMode(d + "/fips.key") == 0600);
  CHECK(fileMode(d + "/fips.pub") == 0644);
  const std::string npub = readText(d + "/fips.pub").substr(0, 63);
  CHECK(r.out.find("Wrote a new key " + d + "/fips.key\n") != std::string::npos);
  CHECK(r.out.find("  npub     " + npub + "\n") != std::string::npos);
  CHECK(r.out.find("  address  fd") != std::string::npos);
  CHECK(r.out.find("  sudo fips -c " + d + "/fips.yaml\n") != std::string::npos);
  CHECK(r.out.find("  fipsctl -c " + d + "/fips.yaml status\n") != std::string::npos);
  const std::string yaml = readText(d + "/fips.yaml");
  CHECK(yaml.find("socket_path: \"" + d + "/control.sock\"") != std::string::npos);
  CHECK(yaml.find("bind_addr: \"10.1.0.1:2121\"") != std::string::npos);
  CHECK(yaml.find(std::string("npub: \"") + PEER + "\"") != std::string::npos);
  CHECK(yaml.find("  enabled: true\n  name: fips0\n") != std::string::npos);
}

TEST_CASE("fipsctl init: refuses an existing fips.yaml, never replaces fips.key") {
  TempDir tmp;
  const std::string d = tmp.path().string();
  REQUIRE(runFipsctl("init -d " + d).status == 0);
  const std::string key = readText(d + "/fips.key");
  writeText(d + "/fips.yaml", "# mine\n");
  RunResult again = runFipsctl("init -d " + d);
  CHECK(again.status == 1);
  CHECK(isOneErrorLine(again.err));
  CHECK(again.err.find(d + "/fips.yaml already exists (use --force") != std::string::npos);
  CHECK(readText(d + "/fips.yaml") == "# mine\n");
  RunResult forced = runFipsctl("init -d " + d + " --force --json");
  REQUIRE(forced.status == 0);
  CHECK(readText(d + "/fips.key") == key);
  CHECK(readText(d + "/fips.yaml") != "# mine\n");
  const auto j = nlohmann::json::parse(forced.out);
  CHECK(j["key_reused"] == true);
  CHECK(j["npub"].get<std::string>() + "\n" == readText(d + "/fips.pub"));
  CHECK(j["ipv6_addr"].get<std::string>().starts_with("fd"));
  CHECK(j["config_file"] == d + "/fips.yaml");
  CHECK(j["socket_path"] == d + "/control.sock");
  CHECK(j["next"][0] == "sudo fips -c " + d + "/fips.yaml");
  // A key made by keygen is kept too, and its npub is the one printed.
  TempDir other;
  const std::string o = other.path().string();
  REQUIRE(runFipsctl("keygen -d " + o).status == 0);
  const std::string keygenKey = readText(o + "/fips.key");
  RunResult kept = runFipsctl("init -d " + o);
  REQUIRE(kept.status == 0);
  CHECK(kept.out.find("Kept the existing key " + o + "/fips.key") != std::string::npos);
  CHECK(kept.out.find(readText(o + "/fips.pub").substr(0, 63)) != std::string::npos);
  CHECK(readText(o + "/fips.key") == keygenKey);
}

TEST_CASE("fipsctl init: bad input writes nothing") {
  TempDir tmp;
  const std::string d = tmp.path().string();
  for (const std::string& args :
       {std::string("--peer npub1bad@10.0.0.1:2121"), std::string("--peer ") + PEER,
        std::string("--listen nonsense"), std::string("--dns '[::1]:0'"),
        std::string("--dns nonsense:53")}) {
    CAPTURE(args);
    RunResult r = runFipsctl("init -d " + d + " " + args);
    CHECK(r.status == 1);
    CHECK(r.err.starts_with("fipsctl: "));
    CHECK_FALSE(std::filesystem::exists(d + "/fips.yaml"));
    CHECK_FALSE(std::filesystem::exists(d + "/fips.key"));
  }
  // A fips.key it cannot read is an error, and stays as it was.
  writeText(d + "/fips.key", "not a key\n");
  RunResult r = runFipsctl("init -d " + d);
  CHECK(r.status == 1);
  CHECK(r.err.find("init never replaces an existing key") != std::string::npos);
  CHECK(readText(d + "/fips.key") == "not a key\n");
  CHECK_FALSE(std::filesystem::exists(d + "/fips.yaml"));
}

// The socket fipsctl tried, from its "cannot connect to PATH" error.
std::string socketTried(const std::string& args, const std::string& env = "") {
  RunResult r = runFipsctl(args + " show status", env);
  const std::string prefix = "fipsctl: cannot connect to ";
  if (r.status != 1 || !r.err.starts_with(prefix)) return "unexpected: " + r.err;
  return r.err.substr(prefix.size(), r.err.find(':', prefix.size()) - prefix.size());
}

TEST_CASE("fipsctl: -s, then -c CONFIG's socket_path, then FIPS_CONTROL_SOCKET") {
  TempDir tmp;
  const std::string d = tmp.path().string();
  REQUIRE(runFipsctl("init -d " + d).status == 0);
  const std::string config = "-c " + d + "/fips.yaml";
  CHECK(socketTried(config) == d + "/control.sock");
  // The command line wins over the environment.
  CHECK(socketTried(config, "FIPS_CONTROL_SOCKET=/tmp/env.sock") == d + "/control.sock");
  CHECK(socketTried("", "FIPS_CONTROL_SOCKET=/tmp/env.sock") == "/tmp/env.sock");
  CHECK(socketTried("-s /tmp/flag.sock " + config, "FIPS_CONTROL_SOCKET=/tmp/env.sock") ==
        "/tmp/flag.sock");
  // A config without socket_path: the default path, the variable notwithstanding.
  writeText(d + "/plain.yaml", "tun:\n  enabled: true\n");
  const std::string fallback = socketTried("-c " + d + "/plain.yaml");
  CHECK((fallback == "/run/fips/control.sock" || fallback.ends_with("fips-control.sock") ||
         fallback.ends_with("/fips/control.sock")));
  CHECK(socketTried("-c " + d + "/plain.yaml", "FIPS_CONTROL_SOCKET=/tmp/env.sock") == fallback);
  // An empty variable counts as unset.
  CHECK(socketTried("", "FIPS_CONTROL_SOCKET=") == fallback);
  // A config that does not load is named.
  writeText(d + "/bad.yaml", "tun: [\n");
  RunResult bad = runFipsctl("-c " + d + "/bad.yaml show status");
  CHECK(bad.status == 1);
  CHECK(bad.err.starts_with("fipsctl: -c " + d + "/bad.yaml: "));
}

}  // namespace
}  // namespace fips::ctl
