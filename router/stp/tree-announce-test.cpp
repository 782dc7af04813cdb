// SPDX-License-Identifier: MIT
#include "router/stp/tree-announce.h"

#include "lib/crypto/rng.h"
#include "router/stp/stp-test-util.h"  // first: sets up doctest

namespace fips::router::stp {
namespace {

using test::addr;

TreeAnnounce sample() {
  TreeAnnounce a;
  a.declaration = {.node = addr(9), .parent = addr(5), .sequence = 7, .timestamp = 1700000000};
  a.ancestry = {{addr(9), 7, 1700000000}, {addr(5), 3, 1699999000}, {addr(1), 40, 1600000000}};
  for (size_t i = 0; i < a.signature.size(); ++i) a.signature[i] = static_cast<uint8_t>(i);
  return a;
}

template <typename T, typename E>
E errorOf(const std::variant<T, E>& v) {
  REQUIRE(std::holds_alternative<E>(v));
  return std::get<E>(v);
}

}  // namespace

TEST_CASE("tree announce: layout and round trip") {
  const auto a = sample();
  const auto body = encodeTreeAnnounce(a);
  REQUIRE(body.size() == 99 + 32 * 3);  // 100 + 32n with the type byte
  CHECK(body[0] == 0x01);
  CHECK(body[1] == 7);     // sequence LE
  CHECK(body[9] == 0x00);  // timestamp LE low byte (1700000000 = 0x6553F100)
  CHECK(body[10] == 0xF1);
  CHECK(body[17] == 5);  // parent
  CHECK(body[33] == 3);  // count LE
  CHECK(body[34] == 0);
  CHECK(body[35] == 9);             // entry 0 address
  CHECK(body[35 + 32] == 5);        // entry 1 address
  CHECK(body[35 + 96] == 0);        // signature byte 0
  CHECK(body[35 + 96 + 63] == 63);  // signature byte 63

  const auto decoded = decodeTreeAnnounce(body);
  REQUIRE(std::holds_alternative<TreeAnnounce>(decoded));
  CHECK(std::get<TreeAnnounce>(decoded) == a);
  CHECK(toCoordinates(a.ancestry) == Coordinates({addr(9), addr(5), addr(1)}));
}

TEST_CASE("tree announce: trailing bytes are ignored") {
  auto body = encodeTreeAnnounce(sample());
  body.push_back(0xAA);
  body.push_back(0xBB);
  const auto decoded = decodeTreeAnnounce(body);
  REQUIRE(std::holds_alternative<TreeAnnounce>(decoded));
  CHECK(std::get<TreeAnnounce>(decoded) == sample());
}

TEST_CASE("tree announce: malformed bodies give typed errors") {
  const auto good = encodeTreeAnnounce(sample());
  CHECK(errorOf(decodeTreeAnnounce(std::span<const uint8_t>())) == TreeAnnounceError::SHORT);
  CHECK(errorOf(decodeTreeAnnounce(std::span(good).first(98))) == TreeAnnounceError::SHORT);

  auto badVersion = good;
  badVersion[0] = 0x02;
  CHECK(errorOf(decodeTreeAnnounce(badVersion)) == TreeAnnounceError::BAD_VERSION);

  // Missing one byte of the signature, then of the last entry.
  CHECK(errorOf(decodeTreeAnnounce(std::span(good).first(good.size() - 1))) ==
        TreeAnnounceError::TRUNCATED);
  auto moreEntries = good;
  moreEntries[33] = 4;  // claims a fourth entry
  CHECK(errorOf(decodeTreeAnnounce(moreEntries)) == TreeAnnounceError::TRUNCATED);
  auto huge = good;
  huge[33] = 0xFF;
  huge[34] = 0xFF;
  CHECK(errorOf(decodeTreeAnnounce(huge)) == TreeAnnounceError::TRUNCATED);

  std::vector<uint8_t> zero(99, 0);
  zero[0] = 0x01;
  CHECK(errorOf(decodeTreeAnnounce(zero)) == TreeAnnounceError::ZERO_ENTRIES);
  CHECK(std::string(toString(TreeAnnounceError::ZERO_ENTRIES)) == "zero_entries");
}

TEST_CASE("tree announce: semantic checks of §2.1 step 4") {
  CHECK_FALSE(validateSemantics(sample()).has_value());

  TreeAnnounce root;
  root.declaration = {.node = addr(1), .parent = addr(1), .sequence = 1, .timestamp = 0};
  root.ancestry = {{addr(1), 1, 0}};
  CHECK_FALSE(validateSemantics(root).has_value());
  root.ancestry.push_back({addr(0), 1, 0});
  CHECK(validateSemantics(root) == AncestryError::ROOT_NOT_SINGLE);

  auto shortPath = sample();
  shortPath.ancestry.resize(1);
  CHECK(validateSemantics(shortPath) == AncestryError::TOO_SHORT);

  auto wrongParent = sample();
  wrongParent.declaration.parent = addr(6);
  CHECK(validateSemantics(wrongParent) == AncestryError::PARENT_MISMATCH);

  auto notMinimum = sample();
  notMinimum.ancestry.back().addr = addr(7);  // root 7 but 5 is in the path
  CHECK(validateSemantics(notMinimum) == AncestryError::ROOT_NOT_MINIMUM);

  auto otherNode = sample();
  otherNode.declaration.node = addr(8);
  CHECK(validateSemantics(otherNode) == AncestryError::NODE_MISMATCH);
}

TEST_CASE("tree announce: signing bytes and BIP-340 over SHA-256") {
  const crypto::Secp256k1Context ctx;
  crypto::OpenSslRng rng;
  const auto k = test::testKey(ctx, 3);
  const ParentDeclaration decl{
      .node = k.addr, .parent = addr(2), .sequence = 0x0102030405060708ULL, .timestamp = 9};
  const auto bytes = signingBytes(decl);
  CHECK(std::equal(k.addr.bytes().begin(), k.addr.bytes().end(), bytes.begin()));
  CHECK(bytes[16] == 2);
  CHECK(bytes[32] == 0x08);  // sequence LE
  CHECK(bytes[39] == 0x01);
  CHECK(bytes[40] == 9);

  const auto sig = signDeclaration(ctx, k.key, decl, rng);
  REQUIRE(sig.has_value());
  const auto xonly = k.key.publicKey().xOnly();
  CHECK(crypto::schnorrVerify(ctx, xonly, bytes, *sig));
  CHECK(verifyDeclaration(ctx, xonly, decl, *sig));

  // A signed announce: flipping any signed byte (sequence, timestamp, parent,
  // the sender's address in entry 0) or any signature byte breaks it.
  TreeAnnounce a;
  a.declaration = decl;
  a.ancestry = {{k.addr, decl.sequence, decl.timestamp}, {addr(2), 1, 1}};
  a.signature = *sig;
  const auto body = encodeTreeAnnounce(a);
  std::vector<size_t> signedOffsets;
  for (size_t i = 1; i < 33; ++i) signedOffsets.push_back(i);        // seq, ts, parent
  for (size_t i = 35; i < 51; ++i) signedOffsets.push_back(i);       // entry 0 address
  for (size_t i = 99; i < 99 + 64; ++i) signedOffsets.push_back(i);  // signature
  for (size_t off : signedOffsets) {
    auto tampered = body;
    tampered[off] ^= 0x01;
    const auto d = decodeTreeAnnounce(tampered);
    REQUIRE(std::holds_alternative<TreeAnnounce>(d));
    const auto& t = std::get<TreeAnnounce>(d);
    CHECK_FALSE(verifyDeclaration(ctx, xonly, t.declaration, t.signature));
  }
  const auto intact = std::get<TreeAnnounce>(decodeTreeAnnounce(body));
  CHECK(verifyDeclaration(ctx, xonly, intact.declaration, intact.signature));
  const auto other = test::testKey(ctx, 4);
  CHECK_FALSE(verifyDeclaration(ctx, other.key.publicKey().xOnly(), decl, *sig));
}

}  // namespace fips::router::stp
