// SPDX-License-Identifier: MIT
// Unit tests for ChaCha20-Poly1305 (chacha-poly.h): the XK vector's transport
// sample, round trips, in-place use and tamper rejection. Test code only.
#include "lib/crypto/chacha-poly.h"

#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "lib/crypto/test-util.h"

namespace fips::crypto {
namespace {

std::vector<uint8_t> key1() {
  return test::fromHex("1149f6dba9a6eb334f2da7ce14e0109a97bcf86bea84c3b66706ee461a9473ef");
}

TEST_CASE("seal reproduces the XK vector transport sample (counter 0, no AD)") {
  const auto key = key1();
  ChaChaPoly sealer(AeadDirection::SEAL, std::span<const uint8_t, 32>(key.data(), 32));
  const std::string_view text = "hello fsp";
  const std::vector<uint8_t> pt(text.begin(), text.end());
  std::vector<uint8_t> out(pt.size() + ChaChaPoly::TAG_SIZE);
  REQUIRE(sealer.seal(0, {}, pt, out));
  CHECK(test::toHex(out) == "19196ea832139ff945bd599c0207df003bfdd9550b01c76d5e");

  ChaChaPoly opener(AeadDirection::OPEN, std::span<const uint8_t, 32>(key.data(), 32));
  std::vector<uint8_t> back(pt.size());
  REQUIRE(opener.open(0, {}, out, back));
  CHECK(back == pt);
}

TEST_CASE("open rejects a flipped bit, wrong counter or wrong AAD, and wipes output") {
  const auto key = key1();
  ChaChaPoly sealer(AeadDirection::SEAL, std::span<const uint8_t, 32>(key.data(), 32));
  ChaChaPoly opener(AeadDirection::OPEN, std::span<const uint8_t, 32>(key.data(), 32));
  const std::vector<uint8_t> aad{1, 2, 3, 4};
  std::vector<uint8_t> pt(100, 0x42);
  std::vector<uint8_t> ct(pt.size() + 16);
  REQUIRE(sealer.seal(7, aad, pt, ct));
  std::vector<uint8_t> out(pt.size(), 0xEE);
  CHECK_FALSE(opener.open(8, aad, ct, out));
  CHECK(out == std::vector<uint8_t>(pt.size(), 0));
  CHECK_FALSE(opener.open(7, std::vector<uint8_t>{1, 2, 3, 5}, ct, out));
  auto bad = ct;
  bad[50] ^= 1;
  CHECK_FALSE(opener.open(7, aad, bad, out));
  bad = ct;
  bad.back() ^= 0x80;
  CHECK_FALSE(opener.open(7, aad, bad, out));
  REQUIRE(opener.open(7, aad, ct, out));
  CHECK(out == pt);
}

TEST_CASE("in-place seal/open, empty plaintext and size checks") {
  const auto key = key1();
  ChaChaPoly sealer(AeadDirection::SEAL, std::span<const uint8_t, 32>(key.data(), 32));
  ChaChaPoly opener(AeadDirection::OPEN, std::span<const uint8_t, 32>(key.data(), 32));
  std::vector<uint8_t> buf(1400 + 16);
  for (size_t i = 0; i < 1400; ++i) buf[i] = static_cast<uint8_t>(i);
  const std::vector<uint8_t> orig(buf.begin(), buf.begin() + 1400);
  REQUIRE(sealer.seal(1, {}, std::span(buf).first(1400), buf));
  REQUIRE(opener.open(1, {}, buf, std::span(buf).first(1400)));
  CHECK(std::vector<uint8_t>(buf.begin(), buf.begin() + 1400) == orig);

  std::vector<uint8_t> tagOnly(16);
  REQUIRE(sealer.seal(0, {}, {}, tagOnly));
  std::vector<uint8_t> none;
  CHECK(opener.open(0, {}, tagOnly, none));
  CHECK_FALSE(opener.open(0, {}, std::span(tagOnly).first(15), none));
  CHECK_FALSE(sealer.seal(0, {}, orig, std::span(buf).first(10)));
  CHECK_FALSE(opener.seal(0, {}, {}, tagOnly));
  ChaChaPoly unkeyed(AeadDirection::SEAL);
  CHECK_FALSE(unkeyed.seal(0, {}, {}, tagOnly));
}

}  // namespace
}  // namespace fips::crypto
