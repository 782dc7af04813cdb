// SPDX-License-Identifier: MIT
// Unit tests for HKDF-SHA256 (hkdf.h): cross-checked against the HMAC form of
// Noise's HKDF computed directly with OpenSSL HMAC. Test code only.
#include "lib/crypto/hkdf.h"

#include <array>
#include <vector>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <doctest/doctest.h>

#include "lib/crypto/test-util.h"

namespace fips::crypto {
namespace {

std::array<uint8_t, 32> hmac(std::span<const uint8_t> key, std::span<const uint8_t> data) {
  std::array<uint8_t, 32> out{};
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), data.data(), data.size(), out.data(),
       &len);
  return out;
}

// Noise spec §4.3 HKDF(ck, ikm, 2) written with HMAC.
void noiseHkdf(std::span<const uint8_t, 32> ck, std::span<const uint8_t> ikm,
               std::array<uint8_t, 32>& o1, std::array<uint8_t, 32>& o2) {
  const auto temp = hmac(ck, ikm);
  const std::array<uint8_t, 1> one{0x01};
  o1 = hmac(temp, one);
  std::vector<uint8_t> second(o1.begin(), o1.end());
  second.push_back(0x02);
  o2 = hmac(temp, second);
}

TEST_CASE("hkdf2 matches the Noise HMAC construction for empty and 32-byte IKM") {
  const auto ck = test::fromHex("15bea16f93969bcae868e128bcbdc110b1d88a5306b367632171a9aaaad3f533");
  const std::span<const uint8_t, 32> ckSpan(ck.data(), 32);
  for (size_t ikmLen : {size_t{0}, size_t{32}, size_t{77}}) {
    std::vector<uint8_t> ikm(ikmLen, 0xA5);
    HkdfPair got;
    REQUIRE(hkdf2(ckSpan, ikm, got));
    std::array<uint8_t, 32> o1{};
    std::array<uint8_t, 32> o2{};
    noiseHkdf(ckSpan, ikm, o1, o2);
    CHECK(test::toHex(got.first.bytes()) == test::toHex(o1));
    CHECK(test::toHex(got.second.bytes()) == test::toHex(o2));
  }
}

TEST_CASE("hkdf2 reproduces the IK vector's es step") {
  // ck after 'premessage' and DH es from noise-ik-secp256k1.json; the next ck is
  // the first HKDF output.
  const auto ck = test::fromHex("15bea16f93969bcae868e128bcbdc110b1d88a5306b367632171a9aaaad3f533");
  const auto es = test::fromHex("26e888e97b415b7f5915fab50972c6cbb56c089a83f1907dd6bc625314080cf4");
  HkdfPair out;
  REQUIRE(hkdf2(std::span<const uint8_t, 32>(ck.data(), 32), es, out));
  CHECK(test::toHex(out.first.bytes()) ==
        "cee08cfbf37189c1cd7384448d6067451119b31c2a752e6b204dc9701a426526");
}

}  // namespace
}  // namespace fips::crypto
