// SPDX-License-Identifier: MIT
#include "router/lookup/lookup-messages.h"

#include "router/routing/routing-test-util.h"

namespace fips::router::lookup {
namespace {

using routing::test::addr;
using routing::test::addrHex;
using routing::test::coords;
using routing::test::fromHex;
using routing::test::toHex;

std::span<const uint8_t> body(const std::vector<uint8_t>& message) {
  return std::span(message).subspan(1);
}

LookupRequest sampleRequest() {
  return LookupRequest{.requestId = 0x0102030405060708,
                       .target = addr(0xDD),
                       .origin = addr(0xAA),
                       .ttl = 64,
                       .minMtu = 0,
                       .originCoords = coords({0xAA, 0x11})};
}

TEST_CASE("LookupRequest: known bytes (46 + 16n) and round trip") {
  const auto bytes = encodeLookupRequest(sampleRequest());
  CHECK(toHex(bytes) ==
        "30"
        "0807060504030201" +
            addrHex(0xDD) + addrHex(0xAA) +
            "40"
            "0000"
            "0200" +
            addrHex(0xAA) + addrHex(0x11));
  CHECK(bytes.size() == 46 + 32);
  const auto decoded = decodeLookupRequest(body(bytes));
  REQUIRE(decoded.ok());
  CHECK(decoded.value() == sampleRequest());
}

TEST_CASE("LookupRequest: typed errors") {
  const auto bytes = encodeLookupRequest(sampleRequest());
  const auto b = body(bytes);
  CHECK(decodeLookupRequest(b.first(44)).error() == LookupError::SHORT);
  CHECK(decodeLookupRequest(b.first(b.size() - 1)).error() == LookupError::TRUNCATED_COORDS);
  auto zero = std::vector<uint8_t>(b.begin(), b.begin() + 45);
  zero[43] = 0;
  zero[44] = 0;
  CHECK(decodeLookupRequest(zero).error() == LookupError::BAD_COUNT);
  auto trailing = std::vector<uint8_t>(b.begin(), b.end());
  trailing.push_back(0x99);
  CHECK(decodeLookupRequest(trailing).ok());
}

class ProofFixture {
 public:
  ProofFixture() : rng_(std::vector<uint8_t>(32 * 8, 0x42)), key_(makeKey()) {}

  crypto::Secp256k1Context ctx;
  crypto::SecretKey& key() { return key_; }
  crypto::Rng& rng() { return rng_; }
  crypto::PublicKey publicKey() const { return key_.publicKey(); }
  NodeAddr nodeAddr() const { return NodeAddr::fromPublicKey(publicKey()); }

 private:
  crypto::SecretKey makeKey() {
    crypto::ScriptedRng seed(std::vector<uint8_t>(32, 0x07));
    return *crypto::SecretKey::generate(ctx, seed);
  }
  crypto::ScriptedRng rng_;
  crypto::SecretKey key_;
};

std::string repeatHex(const std::string& pair, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += pair;
  return out;
}

TEST_CASE("LookupResponse: known bytes (93 + 16n) and round trip") {
  LookupResponse response{.requestId = 0x0102030405060708,
                          .target = addr(0xDD),
                          .pathMtu = 1400,
                          .targetCoords = coords({0xDD, 0x11}),
                          .proof = {}};
  response.proof.fill(0x5A);
  const auto bytes = encodeLookupResponse(response);
  CHECK(toHex(bytes) ==
        "31"
        "0807060504030201" +
            addrHex(0xDD) +
            "7805"
            "0200" +
            addrHex(0xDD) + addrHex(0x11) + repeatHex("5a", 64));
  CHECK(bytes.size() == 93 + 32);
  const auto decoded = decodeLookupResponse(body(bytes));
  REQUIRE(decoded.ok());
  CHECK(decoded.value() == response);
}

TEST_CASE("LookupResponse: typed errors") {
  LookupResponse response{.requestId = 1,
                          .target = addr(0xDD),
                          .pathMtu = 0xFFFF,
                          .targetCoords = coords({0xDD, 0x11}),
                          .proof = {}};
  const auto bytes = encodeLookupResponse(response);
  const auto b = body(bytes);
  CHECK(decodeLookupResponse(b.first(91)).error() == LookupError::SHORT);
  CHECK(decodeLookupResponse(b.first(b.size() - 1)).error() == LookupError::TRUNCATED_PROOF);
  // The count promises more entries than the body holds.
  auto longCount = std::vector<uint8_t>(b.begin(), b.end());
  longCount[26] = 0x09;
  CHECK(decodeLookupResponse(longCount).error() == LookupError::TRUNCATED_COORDS);
  auto zero = std::vector<uint8_t>(b.begin(), b.begin() + 92);
  zero[26] = 0;
  zero[27] = 0;
  CHECK(decodeLookupResponse(zero).error() == LookupError::BAD_COUNT);
  CHECK(std::string(toString(LookupError::TRUNCATED_PROOF)) == "truncated_proof");
}

TEST_CASE("lookup proof: bytes layout, sign, verify, tampering rejected") {
  ProofFixture f;
  const auto myCoords = stp::Coordinates({f.nodeAddr(), addr(0x11)});
  const auto proofBytes = lookupProofBytes(0x0102030405060708, f.nodeAddr(), myCoords);
  CHECK(toHex(proofBytes) == "0807060504030201" + toHex(f.nodeAddr().bytes()) + "0200" +
                                 toHex(f.nodeAddr().bytes()) + addrHex(0x11));

  const auto proof =
      signLookupProof(f.ctx, f.key(), f.rng(), 0x0102030405060708, f.nodeAddr(), myCoords);
  REQUIRE(proof.has_value());
  LookupResponse response{.requestId = 0x0102030405060708,
                          .target = f.nodeAddr(),
                          .pathMtu = 0xFFFF,
                          .targetCoords = myCoords,
                          .proof = *proof};
  CHECK(verifyLookupProof(f.ctx, f.publicKey(), response));

  SUBCASE("path_mtu is not covered") {
    response.pathMtu = 1280;
    CHECK(verifyLookupProof(f.ctx, f.publicKey(), response));
  }
  SUBCASE("tampered coordinates") {
    response.targetCoords = stp::Coordinates({f.nodeAddr(), addr(0x12)});
    CHECK_FALSE(verifyLookupProof(f.ctx, f.publicKey(), response));
  }
  SUBCASE("tampered request_id") {
    response.requestId ^= 1;
    CHECK_FALSE(verifyLookupProof(f.ctx, f.publicKey(), response));
  }
  SUBCASE("tampered proof byte") {
    response.proof[10] ^= 0x01;
    CHECK_FALSE(verifyLookupProof(f.ctx, f.publicKey(), response));
  }
  SUBCASE("proof after a wire round trip still verifies") {
    const auto again = decodeLookupResponse(body(encodeLookupResponse(response)));
    REQUIRE(again.ok());
    CHECK(verifyLookupProof(f.ctx, f.publicKey(), again.value()));
  }
}

}  // namespace
}  // namespace fips::router::lookup
