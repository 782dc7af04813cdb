// SPDX-License-Identifier: MIT
// Unit tests for Schnorr signing (schnorr.h): every BIP-340 vector in
// bip340.csv, the FIPS SHA-256(message) convention, and the IK vector's
// TreeAnnounce signature. Test code only.
#include "lib/crypto/schnorr.h"

#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "lib/crypto/test-util.h"

namespace fips::crypto {
namespace {

std::vector<std::string> splitCsv(const std::string& line, size_t fields) {
  std::vector<std::string> out;
  size_t start = 0;
  while (out.size() + 1 < fields) {
    const size_t comma = line.find(',', start);
    if (comma == std::string::npos) break;
    out.push_back(line.substr(start, comma - start));
    start = comma + 1;
  }
  out.push_back(line.substr(start));
  return out;
}

TEST_CASE("BIP-340 vectors through bip340Sign / bip340Verify") {
  Secp256k1Context ctx;
  std::istringstream csv(test::readVectorFile("bip340.csv"));
  std::string line;
  std::getline(csv, line);  // header
  size_t rows = 0;
  size_t signedRows = 0;
  while (std::getline(csv, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto f = splitCsv(line, 8);
    REQUIRE(f.size() >= 7);
    CAPTURE(f[0]);
    const auto pub = test::fromHex(f[2]);
    const auto msg = test::fromHex(f[4]);
    const auto sig = test::fromHex(f[5]);
    const bool expected = f[6] == "TRUE";
    REQUIRE(pub.size() == 32);
    REQUIRE(sig.size() == 64);
    CHECK(bip340Verify(ctx, std::span<const uint8_t, 32>(pub.data(), 32), msg,
                       std::span<const uint8_t, 64>(sig.data(), 64)) == expected);
    // Our signing API takes 32-byte messages (FIPS signs digests); rows with
    // other message lengths are verify-only.
    if (!f[1].empty() && msg.size() == 32) {
      const auto sk = test::fromHex(f[1]);
      const auto aux = test::fromHex(f[3]);
      auto got = bip340Sign(ctx, Secret<32>(std::span<const uint8_t, 32>(sk.data(), 32)),
                            std::span<const uint8_t, 32>(msg.data(), 32),
                            std::span<const uint8_t, 32>(aux.data(), 32));
      REQUIRE(got);
      CHECK(test::toHex(*got) == test::toHex(sig));
      ++signedRows;
    }
    ++rows;
  }
  CHECK(rows >= 15);
  CHECK(signedRows >= 4);
}

TEST_CASE("FIPS convention: sign SHA-256(message), verify, reject tampering") {
  Secp256k1Context ctx;
  OpenSslRng rng;
  auto key = SecretKey::generate(ctx, rng);
  REQUIRE(key);
  const std::vector<uint8_t> message{'t', 'r', 'e', 'e'};
  auto sig = schnorrSign(ctx, *key, message, rng);
  REQUIRE(sig);
  CHECK(schnorrVerify(ctx, key->publicKey().xOnly(), message, *sig));
  // Not a signature over the raw bytes.
  CHECK_FALSE(bip340Verify(ctx, key->publicKey().xOnly(), message, *sig));
  auto bad = *sig;
  bad[10] ^= 1;
  CHECK_FALSE(schnorrVerify(ctx, key->publicKey().xOnly(), message, bad));
  ScriptedRng empty;
  CHECK_FALSE(schnorrSign(ctx, *key, message, empty));
}

TEST_CASE("IK vector TreeAnnounce signature verifies over SHA-256(signing bytes)") {
  Secp256k1Context ctx;
  const auto doc = nlohmann::json::parse(test::readVectorFile("noise-ik-secp256k1.json"));
  const auto body = test::fromHex(
      doc["frames"]["initiator_root_tree_announce_plaintext_body"].get<std::string>());
  const auto signing =
      test::fromHex(doc["frames"]["tree_announce_signing_bytes"].get<std::string>());
  const auto pub = test::fromHex(doc["keys"]["initiator"]["pub_compressed"].get<std::string>());
  REQUIRE(body.size() > 64);
  const std::span<const uint8_t, 64> sig(body.data() + body.size() - 64, 64);
  const std::span<const uint8_t, 32> xonly(pub.data() + 1, 32);
  CHECK(schnorrVerify(ctx, xonly, signing, sig));
}

}  // namespace
}  // namespace fips::crypto
