// SPDX-License-Identifier: MIT
// Black-box test of the fipsctl binary (FIPSCTL_PATH): keygen file modes,
// --force and --stdout, identity output (human and JSON) and the one-line
// errors for malformed keys. Test-only; runs fipsctl in temporary dirs.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ctl/fipsctl-run.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/identity/nip19.h"
#include "lib/identity/test-util.h"

namespace fips::ctl {
namespace {

using identity::test::fileMode;
using identity::test::readText;
using identity::test::TempDir;
using test::isOneErrorLine;
using test::runFipsctl;
using test::RunResult;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

nlohmann::json firstVector() {
  return identity::test::identityVectors()["valid"][0];
}

TEST_CASE("fipsctl: --help, -V and bad usage") {
  RunResult help = runFipsctl("--help");
  CHECK(help.status == 0);
  CHECK(help.out.find("keygen") != std::string::npos);
  CHECK(help.out.find("identity") != std::string::npos);
  CHECK(help.out.find("--socket") != std::string::npos);
  RunResult keygenHelp = runFipsctl("keygen --help");
  CHECK(keygenHelp.status == 0);
  CHECK(keygenHelp.out.find("--stdout") != std::string::npos);
  RunResult version = runFipsctl("-V");
  CHECK(version.status == 0);
  CHECK(version.out.starts_with("fipsctl "));
  for (const char* bad : {"frobnicate", "keygen --bogus", "identity --nsec a --key-file b"}) {
    CAPTURE(bad);
    RunResult result = runFipsctl(bad);
    CHECK(result.status == 1);
    CHECK(isOneErrorLine(result.err));
  }
}

TEST_CASE("fipsctl: an unknown subcommand is named in the error") {
  RunResult top = runFipsctl("frobnicate");
  CHECK(top.status == 1);
  CHECK(top.err == "fipsctl: unrecognized subcommand 'frobnicate' (see fipsctl --help)\n");
  RunResult nested = runFipsctl("show frobnicate");
  CHECK(nested.status == 1);
  CHECK(nested.err ==
        "fipsctl: unrecognized subcommand 'show frobnicate' (see fipsctl show --help)\n");
}

TEST_CASE("fipsctl: no subcommand lists what it can do") {
  RunResult top = runFipsctl("");
  CHECK(top.status == 2);
  CHECK(top.out.empty());
  for (const char* command : {"init", "status", "show", "keygen", "connect", "probe"}) {
    CAPTURE(command);
    CHECK(top.err.find(std::string("\n  ") + command + " ") != std::string::npos);
  }
  RunResult show = runFipsctl("show");
  CHECK(show.status == 2);
  CHECK(show.err.find("unrecognized") == std::string::npos);
  for (const char* command : {"status", "peers", "links", "tree", "sessions"}) {
    CAPTURE(command);
    CHECK(show.err.find(std::string("\n  ") + command + " ") != std::string::npos);
  }
}

TEST_CASE("fipsctl: -s '' is an error, not the default path") {
  RunResult empty = runFipsctl("-s '' show status");
  CHECK(empty.status == 1);
  CHECK(isOneErrorLine(empty.err));
  CHECK(empty.err.find("empty path") != std::string::npos);
  CHECK(empty.err.find("cannot connect") == std::string::npos);
}

TEST_CASE("fipsctl: --json is accepted anywhere on the line") {
  // No daemon at this path: parsing succeeds and the connection fails.
  for (const char* args :
       {"--json -s /nonexistent.sock show status", "-s /nonexistent.sock show --json status",
        "-s /nonexistent.sock show status --json",
        "-s /nonexistent.sock --json stats history mesh_size --plot"}) {
    CAPTURE(args);
    RunResult result = runFipsctl(args);
    CHECK(result.status == 1);
    CHECK(result.err.starts_with("fipsctl: cannot connect to /nonexistent.sock"));
  }
  // And for the local identity command.
  RunResult identity =
      runFipsctl("--json identity --nsec " + firstVector()["nsec"].get<std::string>());
  REQUIRE(identity.status == 0);
  CHECK(nlohmann::json::parse(identity.out)["ipv6_addr"] == firstVector()["ipv6"]);
}

TEST_CASE("fipsctl: a secret key given for a peer is refused without being echoed") {
  const std::string nsec = firstVector()["nsec"];
  const std::string hex = firstVector()["nsec_hex"];
  const std::string sock = "-s /nonexistent.sock ";
  // Refused while parsing: nothing is sent to a daemon (none listens here).
  for (const std::string& args :
       {"probe " + nsec, "probe " + hex, "connect " + nsec + " 192.0.2.1:2121 udp",
        "disconnect " + hex, "stats history peer_rtt_ms --peer " + nsec,
        "probe --json " + nsec.substr(0, 40)}) {
    CAPTURE(args);
    RunResult result = runFipsctl(sock + args);
    CHECK(result.status == 1);
    CHECK(isOneErrorLine(result.err));
    CHECK(result.err.find("secret key") != std::string::npos);
    CHECK(result.err.find("give the peer's npub") != std::string::npos);
    CHECK(result.err.find("cannot connect") == std::string::npos);
    CHECK(result.err.find(nsec.substr(0, 20)) == std::string::npos);
    CHECK(result.err.find(hex.substr(0, 20)) == std::string::npos);
  }
  // Other errors that would echo the word withhold it too.
  for (const std::string& args : {nsec, "show status " + hex, "probe bob " + nsec}) {
    CAPTURE(args);
    RunResult result = runFipsctl(sock + args);
    CHECK(result.status == 1);
    CHECK(isOneErrorLine(result.err));
    CHECK(result.err.find("<secret key withheld>") != std::string::npos);
    CHECK(result.err.find(nsec.substr(0, 20)) == std::string::npos);
    CHECK(result.err.find(hex.substr(0, 20)) == std::string::npos);
  }
}

TEST_CASE("fipsctl stats metrics: --json with another --format is a usage error") {
  for (const char* args :
       {"stats metrics --format prometheus --json", "--json stats metrics --format table"}) {
    CAPTURE(args);
    RunResult result = runFipsctl(std::string("-s /nonexistent.sock ") + args);
    CHECK(result.status == 1);
    CHECK(isOneErrorLine(result.err));
    CHECK(result.err.find("--json conflicts with --format") != std::string::npos);
    CHECK(result.out.empty());
  }
  // Agreeing or alone, they parse (and the missing daemon is the error).
  for (const char* args : {"stats metrics --format json --json", "stats metrics --json",
                           "stats metrics --format prometheus", "stats metrics"}) {
    CAPTURE(args);
    RunResult result = runFipsctl(std::string("-s /nonexistent.sock ") + args);
    CHECK(result.status == 1);
    CHECK(result.err.starts_with("fipsctl: cannot connect to /nonexistent.sock"));
  }
}

TEST_CASE("fipsctl keygen -d: creates the directory but not missing parents") {
  TempDir dir;
  const std::string d = dir.path().string();
  RunResult deep = runFipsctl("keygen -d " + d + "/missing/keys");
  CHECK(deep.status == 1);
  CHECK(isOneErrorLine(deep.err));
  CHECK(deep.err.find(d + "/missing does not exist") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "missing"));
  RunResult trailing = runFipsctl("keygen -d " + d + "/keys/");
  CHECK(trailing.status == 0);
  CHECK(fileMode(dir.path() / "keys" / "fips.key") == 0600);
}

TEST_CASE("fipsctl keygen: writes 0600/0644 files, refuses to overwrite without -f") {
  TempDir dir;
  std::string d = dir.path().string();
  RunResult first = runFipsctl("keygen -d " + d + "/sub");
  REQUIRE(first.status == 0);
  auto keyPath = dir.path() / "sub" / "fips.key";
  auto pubPath = dir.path() / "sub" / "fips.pub";
  CHECK(fileMode(keyPath) == 0600);
  CHECK(fileMode(pubPath) == 0644);
  std::string key = readText(keyPath);
  std::string pub = readText(pubPath);
  CHECK(key.starts_with("nsec1"));
  // Issue #7: the npub alone on stdout (PUB=$(fipsctl keygen -d DIR)), the
  // notes on stderr; fips.pub is the npub and a newline (the reference's).
  CHECK(first.out == pub);
  CHECK(pub.starts_with("npub1"));
  CHECK(pub.size() == 64);
  CHECK(pub.back() == '\n');
  CHECK(first.err.find("Key files written to: " + d + "/sub/") != std::string::npos);
  CHECK(first.err.find("node.identity.persistent") != std::string::npos);
  CHECK(first.err.find("npub1") == std::string::npos);

  RunResult again = runFipsctl("keygen --dir " + d + "/sub");
  CHECK(again.status == 1);
  CHECK(isOneErrorLine(again.err));
  CHECK(again.err.find("already exists") != std::string::npos);
  CHECK(readText(keyPath) == key);

  RunResult forced = runFipsctl("keygen -f -d " + d + "/sub");
  CHECK(forced.status == 0);
  CHECK(readText(keyPath) != key);
  CHECK(fileMode(keyPath) == 0600);
  CHECK(identity::test::entryCount(dir.path() / "sub") == 2);
}

TEST_CASE("fipsctl keygen -s: prints nsec then npub and writes nothing") {
  TempDir dir;
  // The global -s SOCKET and keygen's -s are distinct options.
  RunResult result = runFipsctl("-s /nonexistent.sock keygen -s -d " + dir.path().string());
  REQUIRE(result.status == 0);
  std::vector<std::string> out = lines(result.out);
  REQUIRE(out.size() == 2);
  crypto::Secp256k1Context ctx;
  auto key = identity::decodeNsec(ctx, out[0]);
  REQUIRE(key.ok());
  CHECK(identity::encodeNpub(key.value().publicKey()) == out[1]);
  CHECK(identity::test::entryCount(dir.path()) == 0);
}

TEST_CASE("fipsctl keygen --json: one JSON object, with files or with -s") {
  TempDir dir;
  const std::string d = dir.path().string();
  RunResult files = runFipsctl("keygen --json -d " + d + "/keys");
  REQUIRE(files.status == 0);
  nlohmann::json written = nlohmann::json::parse(files.out, nullptr, false);
  REQUIRE(written.is_object());
  CHECK(written["key_file"] == d + "/keys/fips.key");
  CHECK(written["pub_file"] == d + "/keys/fips.pub");
  CHECK(written["npub"] == readText(dir.path() / "keys" / "fips.pub").substr(0, 63));
  CHECK(written["node_addr"].get<std::string>().size() == 32);
  CHECK(written["ipv6_addr"].get<std::string>().starts_with("fd"));
  CHECK_FALSE(written.contains("nsec"));
  // The reminder stays on stderr.
  CHECK(files.err.find("node.identity.persistent: true") != std::string::npos);

  RunResult printed = runFipsctl("--json keygen -s -d " + d + "/none");
  REQUIRE(printed.status == 0);
  nlohmann::json pair = nlohmann::json::parse(printed.out, nullptr, false);
  REQUIRE(pair.is_object());
  crypto::Secp256k1Context ctx;
  auto key = identity::decodeNsec(ctx, pair["nsec"].get<std::string>());
  REQUIRE(key.ok());
  CHECK(identity::encodeNpub(key.value().publicKey()) == pair["npub"]);
  CHECK(pair["node_addr"].get<std::string>().size() == 32);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "none"));
}

TEST_CASE("fipsctl identity: --json and human output match the vectors") {
  nlohmann::json v = firstVector();
  std::string nsec = v["nsec"];
  RunResult json = runFipsctl("identity --json --nsec " + nsec);
  REQUIRE(json.status == 0);
  nlohmann::json parsed = nlohmann::json::parse(json.out);
  CHECK(parsed.size() == 3);
  CHECK(parsed["npub"] == v["npub"]);
  CHECK(parsed["node_addr"] == v["node_addr_hex"]);
  CHECK(parsed["ipv6_addr"] == v["ipv6"]);

  TempDir dir;
  auto keyFile = dir.path() / "fips.key";
  std::ofstream(keyFile) << v["nsec_hex"].get<std::string>() << "\n";
  REQUIRE(::chmod(keyFile.c_str(), 0644) == 0);
  RunResult human = runFipsctl("identity --key-file " + keyFile.string());
  REQUIRE(human.status == 0);
  CHECK(human.out == "npub: " + v["npub"].get<std::string>() +
                         "\nnode_addr: " + v["node_addr_hex"].get<std::string>() +
                         "\nipv6: " + v["ipv6"].get<std::string>() + "\n");
  // A loose mode is fixed and reported.
  CHECK(human.err.find("fipsctl: warning:") != std::string::npos);
  CHECK(fileMode(keyFile) == 0600);
}

TEST_CASE("fipsctl identity: malformed keys are one-line errors naming the check") {
  nlohmann::json vectors = identity::test::identityVectors();
  for (const auto& v : vectors["invalid"]) {
    std::string input = v["input"];
    if (input.starts_with("npub")) continue;
    CAPTURE(input);
    RunResult result = runFipsctl("identity --nsec " + input);
    CHECK(result.status == 1);
    CHECK(isOneErrorLine(result.err));
    CHECK(result.err.starts_with("fipsctl: invalid --nsec: "));
  }
  CHECK(runFipsctl("identity --nsec nsec1qqqq").err.find("too short") != std::string::npos);
  CHECK(runFipsctl("identity --nsec xyz").err.find("bad hex") != std::string::npos);
  RunResult missing = runFipsctl("identity --key-file /nonexistent/fips.key");
  CHECK(missing.status == 1);
  CHECK(isOneErrorLine(missing.err));
}

}  // namespace
}  // namespace fips::ctl
