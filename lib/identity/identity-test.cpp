// SPDX-License-Identifier: MIT
// Tests of keys, NIP-19 npub/nsec, NodeAddr and the FIPS IPv6 address against
// tests/vectors/identity.json, plus round trips of random keys. Test-only.
#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include <doctest/doctest.h>

#include "lib/crypto/secp256k1-context.h"
#include "lib/identity/bech32.h"
#include "lib/identity/fips-address.h"
#include "lib/identity/hex.h"
#include "lib/identity/key-file.h"
#include "lib/identity/nip19.h"
#include "lib/identity/node-addr.h"
#include "lib/identity/test-util.h"

namespace fips::identity {
namespace {

using crypto::PublicKey;
using crypto::SecretKey;
using test::contains;
using test::expectError;
using test::expectValue;

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return text;
}

// The error kind a vector's free-text description names.
IdentityErrorKind kindNamedBy(const std::string& description) {
  if (contains(description, "checksum")) return IdentityErrorKind::BAD_CHECKSUM;
  if (contains(description, "valid scalar")) return IdentityErrorKind::SCALAR_OUT_OF_RANGE;
  if (contains(description, "wrong length")) return IdentityErrorKind::WRONG_LENGTH;
  if (contains(description, "not on") || contains(description, "curve point")) {
    return IdentityErrorKind::NOT_ON_CURVE;
  }
  if (contains(description, "prefix") || contains(description, "HRP")) {
    return IdentityErrorKind::WRONG_HRP;
  }
  if (contains(description, "hex")) return IdentityErrorKind::BAD_HEX;
  FAIL("a vector names an error this test does not know: " << description);
  return IdentityErrorKind::MALFORMED;
}

TEST_CASE("identity vectors: every valid key derives the expected identity") {
  crypto::Secp256k1Context ctx;
  nlohmann::json vectors = test::identityVectors();
  REQUIRE(vectors["valid"].size() >= 12);
  for (const auto& v : vectors["valid"]) {
    std::string nsec = v["nsec"];
    CAPTURE(nsec);
    auto fromNsec = parseSecretKey(ctx, nsec);
    auto fromHexText = parseSecretKey(ctx, v["nsec_hex"].get<std::string>());
    auto fromUpperNsec = decodeNsec(ctx, upper(nsec));
    SecretKey& key = expectValue(fromNsec);
    CHECK(key.equals(expectValue(fromHexText)));
    CHECK(key.equals(expectValue(fromUpperNsec)));
    CHECK(encodeNsec(key).view() == nsec);
    CHECK(toHex(key.secret().bytes()) == v["nsec_hex"]);

    PublicKey pub = key.publicKey();
    CHECK(toHex(pub.xOnly()) == v["pubkey_xonly_hex"]);
    CHECK(toHex(pub.compressed()) == v["pubkey_compressed_hex"]);
    CHECK(pub.hasEvenY() == (v["parity"] == "even"));
    CHECK(encodeNpub(pub) == v["npub"]);

    NodeAddr nodeAddr = NodeAddr::fromPublicKey(pub);
    CHECK(nodeAddr.toHex() == v["node_addr_hex"]);
    CHECK(FipsAddress::fromNodeAddr(nodeAddr).toString() == v["ipv6"]);

    auto decoded = decodeNpub(v["npub"].get<std::string>());
    PublicKey& fromNpub = expectValue(decoded);
    CHECK(fromNpub == pub);      // same X, whatever the parity
    CHECK(fromNpub.hasEvenY());  // an npub is lifted to even Y (spec 01 §1)
    CHECK(NodeAddr::fromPublicKey(fromNpub) == nodeAddr);
    auto decodedUpper = decodeNpub(upper(v["npub"]));
    CHECK(expectValue(decodedUpper) == pub);
  }
}

TEST_CASE("identity vectors: every malformed input gives the error it must") {
  crypto::Secp256k1Context ctx;
  nlohmann::json vectors = test::identityVectors();
  REQUIRE(!vectors["invalid"].empty());
  for (const auto& v : vectors["invalid"]) {
    std::string input = v["input"];
    std::string description = v["error"];
    CAPTURE(input);
    CAPTURE(description);
    IdentityError err = input.starts_with("npub") ? expectError(decodeNpub(input))
                                                  : expectError(parseSecretKey(ctx, input));
    CHECK(err.kind == kindNamedBy(description));
    CHECK(err.message.find('\n') == std::string::npos);
  }
}

TEST_CASE("nip19: each malformed case is its own typed error") {
  crypto::Secp256k1Context ctx;
  crypto::SecretKey keypair = generateSecretKey(ctx);
  std::string npub = encodeNpub(keypair.publicKey());
  std::string nsec(encodeNsec(keypair).view());

  SUBCASE("wrong HRP names expected and got") {
    IdentityError err = expectError(decodeNpub(nsec));
    CHECK(err.kind == IdentityErrorKind::WRONG_HRP);
    CHECK(contains(err.message, "expected 'npub', got 'nsec'"));
    CHECK(expectError(decodeNsec(ctx, npub)).kind == IdentityErrorKind::WRONG_HRP);
  }
  SUBCASE("wrong length") {
    std::vector<uint8_t> shortData(31, 7), longData(33, 7);
    IdentityError err = expectError(decodeNpub(bech32Encode("npub", shortData)));
    CHECK(err.kind == IdentityErrorKind::WRONG_LENGTH);
    CHECK(contains(err.message, "got 31"));
    CHECK(expectError(decodeNsec(ctx, bech32Encode("nsec", longData))).kind ==
          IdentityErrorKind::WRONG_LENGTH);
  }
  SUBCASE("invalid character") {
    for (char bad : {'b', 'i', 'o', '!'}) {
      std::string text = npub;
      text[10] = bad;
      CAPTURE(text);
      CHECK(expectError(decodeNpub(text)).kind == IdentityErrorKind::INVALID_CHARACTER);
    }
  }
  SUBCASE("bad checksum") {
    std::string text = npub;
    text.back() = text.back() == 'q' ? 'p' : 'q';
    CHECK(expectError(decodeNpub(text)).kind == IdentityErrorKind::BAD_CHECKSUM);
  }
  SUBCASE("mixed case") {
    std::string text = npub;
    text[0] = 'N';
    CHECK(expectError(decodeNpub(text)).kind == IdentityErrorKind::MIXED_CASE);
  }
  SUBCASE("x not on the curve") {
    std::array<uint8_t, 32> x{};
    x.fill(0xff);  // >= p
    CHECK(expectError(decodeNpub(bech32Encode("npub", x))).kind == IdentityErrorKind::NOT_ON_CURVE);
    x.fill(0);
    x[31] = 5;  // 5^3 + 7 = 132 is not a square mod p
    CHECK(expectError(decodeNpub(bech32Encode("npub", x))).kind == IdentityErrorKind::NOT_ON_CURVE);
  }
  SUBCASE("scalar out of range in an nsec") {
    std::array<uint8_t, 32> zero{};
    IdentityError err = expectError(decodeNsec(ctx, bech32Encode("nsec", zero)));
    CHECK(err.kind == IdentityErrorKind::SCALAR_OUT_OF_RANGE);
    CHECK(contains(err.message, "zero"));
  }
  SUBCASE("bad hex") {
    CHECK(expectError(parseSecretKey(ctx, std::string(63, 'a'))).kind ==
          IdentityErrorKind::BAD_HEX);
    CHECK(expectError(parseSecretKey(ctx, std::string(64, 'g'))).kind ==
          IdentityErrorKind::BAD_HEX);
    CHECK(expectError(parseSecretKey(ctx, "")).kind == IdentityErrorKind::WRONG_LENGTH);
    CHECK(expectError(parseSecretKey(ctx, std::string(66, 'a'))).kind ==
          IdentityErrorKind::WRONG_LENGTH);
  }
  SUBCASE("an npub or garbage where a secret key belongs says what was expected") {
    IdentityError err = expectError(parseSecretKey(ctx, encodeNpub(keypair.publicKey())));
    CHECK(err.kind == IdentityErrorKind::WRONG_HRP);
    CHECK(contains(err.message, "npub (a public key"));
    CHECK(contains(expectError(parseSecretKey(ctx, "garbage")).message,
                   "not an nsec or 64 hex characters: bad hex"));
  }
  SUBCASE("an uppercase nsec is hex to parseSecretKey, as in the reference") {
    CHECK(expectError(parseSecretKey(ctx, upper(nsec))).kind == IdentityErrorKind::BAD_HEX);
  }
}

TEST_CASE("nip19: a bech32m-checksummed npub and nsec decode, as in the reference") {
  crypto::Secp256k1Context ctx;
  crypto::SecretKey keypair = generateSecretKey(ctx);
  std::string npubM = bech32Encode("npub", keypair.publicKey().xOnly(), Bech32Variant::BECH32M);
  auto decoded = decodeNpub(npubM);
  CHECK(expectValue(decoded) == keypair.publicKey());
  std::string nsecM = bech32Encode("nsec", keypair.secret().bytes(), Bech32Variant::BECH32M);
  auto secret = decodeNsec(ctx, nsecM);
  CHECK(expectValue(secret).equals(keypair));
}

TEST_CASE("keys: random keys of both parities round-trip") {
  crypto::Secp256k1Context ctx;
  std::set<bool> seen;  // hasEvenY()
  for (int i = 0; i < 200 && seen.size() < 2; ++i) {
    crypto::SecretKey keypair = generateSecretKey(ctx);
    seen.insert(keypair.publicKey().hasEvenY());
    std::string npub = encodeNpub(keypair.publicKey());
    CHECK(npub.size() == 63);
    auto pub = decodeNpub(npub);
    CHECK(expectValue(pub) == keypair.publicKey());
    SecretString nsec = encodeNsec(keypair);
    CHECK(nsec.view().size() == 63);
    auto secret = parseSecretKey(ctx, nsec.view());
    CHECK(expectValue(secret).equals(keypair));
    auto hexSecret = parseSecretKey(ctx, toHex(keypair.secret().bytes()));
    CHECK(expectValue(hexSecret).equals(keypair));
    auto compressed = PublicKey::fromCompressed(keypair.publicKey().compressed());
    REQUIRE(compressed);
    CHECK(compressed->compressed() == keypair.publicKey().compressed());
  }
  CHECK(seen.size() == 2);
}

TEST_CASE("keys: an invalid compressed point is rejected") {
  std::array<uint8_t, 33> bytes{};
  bytes[0] = 0x04;
  CHECK_FALSE(PublicKey::fromCompressed(bytes));
  bytes[0] = 0x02;
  bytes[32] = 5;
  CHECK_FALSE(PublicKey::fromCompressed(bytes));
}

TEST_CASE("node addr and ipv6: ordering, hex, short forms, prefix check") {
  crypto::Secp256k1Context ctx;
  nlohmann::json vectors = test::identityVectors();
  const auto& first = vectors["valid"][0];
  auto key = parseSecretKey(ctx, first["nsec"].get<std::string>());
  PublicKey pub = expectValue(key).publicKey();
  NodeAddr addr = NodeAddr::fromPublicKey(pub);
  CHECK(addr.shortHex() == first["node_addr_hex"].get<std::string>().substr(0, 8) + "...");
  std::string npub = first["npub"];
  CHECK(shortNpub(pub) == "npub1" + npub.substr(5, 4) + "..." + npub.substr(npub.size() - 4));
  auto parsed = NodeAddr::fromHex(upper(addr.toHex()));
  REQUIRE(parsed.has_value());
  CHECK(*parsed == addr);
  CHECK_FALSE(NodeAddr::fromHex("00").has_value());

  std::array<uint8_t, 16> low{}, high{};
  low[15] = 1;
  high[0] = 1;
  CHECK(NodeAddr(low) < NodeAddr(high));
  CHECK(NodeAddr() < NodeAddr(low));

  FipsAddress fips = FipsAddress::fromNodeAddr(addr);
  CHECK(fips.bytes()[0] == 0xfd);
  CHECK(std::equal(fips.bytes().begin() + 1, fips.bytes().end(), addr.bytes().begin()));
  auto back = FipsAddress::fromBytes(fips.bytes());
  REQUIRE(back.has_value());
  CHECK(*back == fips);
  std::array<uint8_t, 16> notFips = fips.bytes();
  notFips[0] = 0xfc;
  CHECK_FALSE(FipsAddress::fromBytes(notFips).has_value());
}

}  // namespace
}  // namespace fips::identity
