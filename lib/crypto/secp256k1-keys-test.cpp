// SPDX-License-Identifier: MIT
// Unit tests for secp256k1 key handling (secp256k1-keys.h) against
// identity.json: secret → compressed key, parity, x-only lift, invalid scalars.
// Test code only.
#include "lib/crypto/secp256k1-keys.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "lib/crypto/test-util.h"

namespace fips::crypto {
namespace {

Secret<32> secretFromHex(std::string_view hex) {
  const auto bytes = test::fromHex(hex);
  return Secret<32>(std::span<const uint8_t, 32>(bytes.data(), 32));
}

TEST_CASE("identity.json: compressed public keys, parity and x-only lift") {
  const auto doc = nlohmann::json::parse(test::readVectorFile("identity.json"));
  Secp256k1Context ctx;
  size_t count = 0;
  for (const auto& v : doc["valid"]) {
    auto pair = SecretKey::fromSecret(ctx, secretFromHex(v["nsec_hex"].get<std::string>()));
    REQUIRE(pair);
    CHECK(test::toHex(pair->publicKey().compressed()) == v["pubkey_compressed_hex"]);
    CHECK(test::toHex(pair->publicKey().xOnly()) == v["pubkey_xonly_hex"]);
    CHECK(pair->publicKey().hasEvenY() == (v["parity"] == "even"));
    const auto x = test::fromHex(v["pubkey_xonly_hex"].get<std::string>());
    auto lifted = PublicKey::fromXOnly(std::span<const uint8_t, 32>(x.data(), 32));
    REQUIRE(lifted);
    CHECK(lifted->hasEvenY());
    CHECK(test::toHex(lifted->xOnly()) == v["pubkey_xonly_hex"]);
    ++count;
  }
  CHECK(count >= 4);
}

TEST_CASE("invalid scalars and points are rejected") {
  Secp256k1Context ctx;
  CHECK_FALSE(SecretKey::fromSecret(ctx, Secret<32>()));
  CHECK_FALSE(SecretKey::fromSecret(
      ctx, secretFromHex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")));
  std::array<uint8_t, 33> bad{};
  bad[0] = 0x04;
  CHECK_FALSE(PublicKey::fromCompressed(bad));
  bad[0] = 0x02;  // X = 0 is not on the curve
  CHECK_FALSE(PublicKey::fromCompressed(bad));
  CHECK_FALSE(PublicKey::fromCompressed(std::span(bad).first(32)));
  std::array<uint8_t, 32> x5{};
  x5[31] = 5;  // x = 5: no point on secp256k1 has this X
  CHECK_FALSE(PublicKey::fromXOnly(x5));
}

TEST_CASE("generate draws valid pairs and fails cleanly when the rng runs dry") {
  Secp256k1Context ctx;
  OpenSslRng rng;
  auto a = SecretKey::generate(ctx, rng);
  auto b = SecretKey::generate(ctx, rng);
  REQUIRE(a);
  REQUIRE(b);
  CHECK_FALSE(a->publicKey() == b->publicKey());
  ScriptedRng empty;
  CHECK_FALSE(SecretKey::generate(ctx, empty));
}

}  // namespace
}  // namespace fips::crypto
