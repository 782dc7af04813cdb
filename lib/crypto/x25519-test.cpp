// SPDX-License-Identifier: MIT
// Unit tests for X25519 (x25519.h) with the RFC 7748 §6.1 vector. Test code only.
#include "lib/crypto/x25519.h"

#include <doctest/doctest.h>

#include "lib/crypto/test-util.h"

namespace fips::crypto {
namespace {

TEST_CASE("RFC 7748 §6.1 Diffie-Hellman vector") {
  const auto a = test::fromHex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
  const auto b = test::fromHex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
  Secret<32> alice(std::span<const uint8_t, 32>(a.data(), 32));
  Secret<32> bob(std::span<const uint8_t, 32>(b.data(), 32));
  auto alicePub = x25519PublicKey(alice);
  auto bobPub = x25519PublicKey(bob);
  REQUIRE(alicePub);
  REQUIRE(bobPub);
  CHECK(test::toHex(*alicePub) ==
        "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
  CHECK(test::toHex(*bobPub) == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
  auto k1 = x25519(alice, *bobPub);
  auto k2 = x25519(bob, *alicePub);
  REQUIRE(k1);
  REQUIRE(k2);
  CHECK(test::toHex(k1->bytes()) ==
        "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
  CHECK(k1->equals(*k2));
}

}  // namespace
}  // namespace fips::crypto
