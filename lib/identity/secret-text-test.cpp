// SPDX-License-Identifier: MIT
// Tests for secret-text.h: a secret key given where a peer belongs is named
// as such and never echoed; error lines lose any key-shaped word.
#include "lib/identity/secret-text.h"

#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "lib/identity/test-util.h"

namespace fips::identity {
namespace {

TEST_CASE("secretKeyNotPeer: an nsec or 60+ hex characters is refused without the value") {
  const nlohmann::json v = test::identityVectors()["valid"][0];
  const std::string nsec = v["nsec"];
  const std::string hex = v["nsec_hex"];
  std::string upper = nsec;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  // A mistyped nsec (its last character dropped) is still most of a key.
  for (const std::string& secret : {nsec, upper, nsec.substr(0, nsec.size() - 1), hex}) {
    CAPTURE(secret);
    const auto refusal = secretKeyNotPeer(secret);
    REQUIRE(refusal.has_value());
    CHECK(refusal->find(secret) == std::string::npos);
    CHECK(refusal->find(hex.substr(0, 16)) == std::string::npos);
    CHECK(refusal->find("give the peer's npub") != std::string::npos);
  }
  CHECK(secretKeyNotPeer(nsec)->find("(nsec)") != std::string::npos);
  CHECK(secretKeyNotPeer(hex)->find("64 hex characters") != std::string::npos);
  // A hex key with a character lost or added: refused too, by its length.
  CHECK(secretKeyNotPeer(hex.substr(0, 63))->find("63 hex characters") != std::string::npos);
  CHECK(secretKeyNotPeer(hex + "0")->find("65 hex characters") != std::string::npos);
  for (const std::string& peer : {std::string(v["npub"]), std::string("bob"), std::string(""),
                                  hex.substr(0, 32), std::string("a-host.example")}) {
    CAPTURE(peer);
    CHECK_FALSE(secretKeyNotPeer(peer).has_value());
  }
}

TEST_CASE("withoutSecretKeys: key-shaped words are withheld, the rest kept") {
  const nlohmann::json v = test::identityVectors()["valid"][0];
  const std::string nsec = v["nsec"];
  const std::string hex = v["nsec_hex"];
  const std::string npub = v["npub"];
  CHECK(withoutSecretKeys("unknown peer '" + nsec + "': not an npub") ==
        "unknown peer '<secret key withheld>': not an npub");
  CHECK(withoutSecretKeys("The following argument was not expected: " + hex) ==
        "The following argument was not expected: <secret key withheld>");
  CHECK(withoutSecretKeys("key=" + hex + "0 (x)") == "<secret key withheld> (x)");
  CHECK(withoutSecretKeys("was NSEC1abc") == "was <secret key withheld>");
  const std::string kept = "unknown peer '" + npub + "' at fd00::1:2121, node " + hex.substr(0, 32);
  CHECK(withoutSecretKeys(kept) == kept);
  CHECK(withoutSecretKeys("") == "");
  // A mistyped copy (63 hex) is still withheld; a path with a 64-hex name is not.
  CHECK(withoutSecretKeys("peer " + hex.substr(1)) == "peer <secret key withheld>");
  const std::string socketPath = "cannot connect to /run/c/" + hex + "/control.sock: gone";
  CHECK(withoutSecretKeys(socketPath) == socketPath);
}

}  // namespace
}  // namespace fips::identity
