// SPDX-License-Identifier: MIT
// Unit tests for x-only ECDH (ecdh.h): the IK vector's DH values, symmetry and
// parity independence. Test code only.
#include "lib/crypto/ecdh.h"

#include <doctest/doctest.h>

#include "lib/crypto/test-util.h"

namespace fips::crypto {
namespace {

SecretKey pairFromHex(const Secp256k1Context& ctx, std::string_view hex) {
  const auto bytes = test::fromHex(hex);
  auto pair =
      SecretKey::fromSecret(ctx, Secret<32>(std::span<const uint8_t, 32>(bytes.data(), 32)));
  REQUIRE(pair);
  return std::move(*pair);
}

TEST_CASE("IK vector DH values: es, ss, ee") {
  Secp256k1Context ctx;
  auto si = pairFromHex(ctx, "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20");
  auto sr = pairFromHex(ctx, "b102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1fb0");
  auto ei = pairFromHex(ctx, "ca6f31cb420039e08c2e3f3dd648fb3c27ac1554dc23b4bd3ba3bd29de7b3367");
  auto er = pairFromHex(ctx, "34d91fec86b761aec1963af017942bbf2cbf68aaada25a70a05f16c5ab4a9b20");
  auto es = ecdhXOnly(ctx, ei.secret(), sr.publicKey());
  auto ss = ecdhXOnly(ctx, si.secret(), sr.publicKey());
  auto ee = ecdhXOnly(ctx, ei.secret(), er.publicKey());
  REQUIRE(es);
  REQUIRE(ss);
  REQUIRE(ee);
  CHECK(test::toHex(es->bytes()) ==
        "26e888e97b415b7f5915fab50972c6cbb56c089a83f1907dd6bc625314080cf4");
  CHECK(test::toHex(ss->bytes()) ==
        "fc772f5af0bd0167c9d973f71406acefcc372ed445debceade69c530a35fcd63");
  CHECK(test::toHex(ee->bytes()) ==
        "4a729cb38f80557c2a0c312b93b751e4b779091e02241c38f33afeee5bf76bb6");
  // Symmetric: DH(s_r, e_i) == DH(e_i, s_r).
  auto se = ecdhXOnly(ctx, sr.secret(), ei.publicKey());
  REQUIRE(se);
  CHECK(se->equals(*es));
}

TEST_CASE("DH ignores the parity of the peer key (responder known only by x-only)") {
  Secp256k1Context ctx;
  auto si = pairFromHex(ctx, "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20");
  auto sr = pairFromHex(ctx, "b102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1fb0");
  REQUIRE_FALSE(sr.publicKey().hasEvenY());
  auto lifted = PublicKey::fromXOnly(sr.publicKey().xOnly());
  REQUIRE(lifted);
  auto a = ecdhXOnly(ctx, si.secret(), sr.publicKey());
  auto b = ecdhXOnly(ctx, si.secret(), *lifted);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->equals(*b));
}

}  // namespace
}  // namespace fips::crypto
