// SPDX-License-Identifier: MIT
// Tests of the bech32/bech32m codec: BIP-173 and BIP-350 test vectors,
// case rules, error kinds and round trips. Test-only.
#include "lib/identity/bech32.h"

#include <string>
#include <vector>

#include <openssl/rand.h>

#include <doctest/doctest.h>

#include "lib/identity/test-util.h"

namespace fips::identity {
namespace {

using test::expectError;
using test::expectValue;

IdentityErrorKind errorKind(std::string_view text) {
  return expectError(bech32Decode(text)).kind;
}

TEST_CASE("bech32: BIP-173 valid strings decode as bech32") {
  for (const char* text :
       {"A12UEL5L", "a12uel5l",
        "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexclude"
        "dcharactersbio1tt5tgs",
        "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
        "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w", "?1ezyfcl"}) {
    CAPTURE(text);
    auto result = bech32Decode(text);
    CHECK(expectValue(result).variant == Bech32Variant::BECH32);
  }
}

TEST_CASE("bech32: BIP-350 valid strings decode as bech32m") {
  for (const char* text : {"A1LQFN3A", "a1lqfn3a", "?1v759aa"}) {
    CAPTURE(text);
    auto result = bech32Decode(text);
    CHECK(expectValue(result).variant == Bech32Variant::BECH32M);
  }
}

TEST_CASE("bech32: BIP-173 invalid strings fail with the right kind") {
  CHECK(errorKind(std::string("\x20") + "1nwldj5") == IdentityErrorKind::INVALID_CHARACTER);
  CHECK(errorKind("\x7f"
                  "1axkwrx") == IdentityErrorKind::INVALID_CHARACTER);
  CHECK(errorKind("\x80"
                  "1eym55h") == IdentityErrorKind::INVALID_CHARACTER);
  CHECK(errorKind("an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedchara"
                  "ctersbio1569pvx") == IdentityErrorKind::MALFORMED);
  CHECK(errorKind("pzry9x0s0muk") == IdentityErrorKind::MALFORMED);
  CHECK(errorKind("1pzry9x0s0muk") == IdentityErrorKind::MALFORMED);
  CHECK(errorKind("x1b4n0q5v") == IdentityErrorKind::INVALID_CHARACTER);
  CHECK(errorKind("li1dgmt3") == IdentityErrorKind::WRONG_LENGTH);
  CHECK(errorKind("de1lg7wt\xff") == IdentityErrorKind::INVALID_CHARACTER);
  CHECK(errorKind("A1G7SGD8") == IdentityErrorKind::BAD_CHECKSUM);
  CHECK(errorKind("10a06t8") == IdentityErrorKind::MALFORMED);
  CHECK(errorKind("1qzzfhee") == IdentityErrorKind::MALFORMED);
}

TEST_CASE("bech32: mixed case is rejected, each single case accepted") {
  CHECK(errorKind("A12uEL5L") == IdentityErrorKind::MIXED_CASE);
  CHECK(errorKind("a12UEL5L") == IdentityErrorKind::MIXED_CASE);
  auto upper = bech32Decode("A12UEL5L");
  CHECK(expectValue(upper).hrp == "a");
}

TEST_CASE("bech32: error messages are one line and name the check") {
  CHECK(expectError(bech32Decode("a12uel5m")).message == "bad bech32 checksum");
  CHECK(expectError(bech32Decode("A12uEL5L")).message.find("mixed-case") != std::string::npos);
  CHECK(expectError(bech32Decode("x1b4n0q5v")).message.find("invalid") != std::string::npos);
  CHECK(expectError(bech32Decode("pzry9x0s0muk")).message.find("separator") != std::string::npos);
}

TEST_CASE("bech32: every single-character substitution breaks the checksum") {
  std::string good = "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw";
  for (size_t i = 7; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = bad[i] == 'q' ? 'p' : 'q';
    CAPTURE(bad);
    CHECK(errorKind(bad) == IdentityErrorKind::BAD_CHECKSUM);
  }
}

TEST_CASE("bech32: round trips of random payloads, both variants") {
  for (size_t len = 0; len <= 64; ++len) {
    std::vector<uint8_t> data(len);
    REQUIRE(RAND_bytes(data.data(), static_cast<int>(len)) == 1);
    for (Bech32Variant variant : {Bech32Variant::BECH32, Bech32Variant::BECH32M}) {
      std::string text = bech32Encode("test", data, variant);
      CAPTURE(text);
      auto decoded = bech32Decode(text);
      Bech32Decoded& value = expectValue(decoded);
      CHECK(value.hrp == "test");
      CHECK(value.data == data);
      CHECK(value.variant == variant);
    }
  }
}

TEST_CASE("bech32: known encoding") {
  std::vector<uint8_t> data = {0x00, 0x01, 0x02};
  CHECK(bech32Encode("bech32", data) == "bech321qqqsyrhqy2a");
}

}  // namespace
}  // namespace fips::identity
