// SPDX-License-Identifier: MIT
// Lookup message codecs and proofs (FIPS spec 03 §5). Runs in fips-router;
// bodies come from peers and are untrusted.
#include "router/lookup/lookup-messages.h"

#include <algorithm>

#include "lib/crypto/schnorr.h"
#include "router/fmp/fmp-le.h"
#include "router/routing/coords-wire.h"

namespace fips::router::lookup {

namespace {

using routing::CoordsWireError;

// Request body offsets.
constexpr size_t REQ_TARGET = 8;
constexpr size_t REQ_ORIGIN = REQ_TARGET + NodeAddr::SIZE;
constexpr size_t REQ_TTL = REQ_ORIGIN + NodeAddr::SIZE;  // 40
constexpr size_t REQ_MIN_MTU = REQ_TTL + 1;
constexpr size_t REQ_COORDS = REQ_MIN_MTU + 2;  // 43
// Response body offsets.
constexpr size_t RESP_TARGET = 8;
constexpr size_t RESP_PATH_MTU = RESP_TARGET + NodeAddr::SIZE;  // 24
constexpr size_t RESP_COORDS = RESP_PATH_MTU + 2;               // 26
static_assert(REQ_COORDS + 2 == LOOKUP_REQUEST_MIN_BODY);
static_assert(RESP_COORDS + 2 + PROOF_SIZE == LOOKUP_RESPONSE_MIN_BODY);

NodeAddr addrAt(std::span<const uint8_t> body, size_t off) {
  std::array<uint8_t, NodeAddr::SIZE> out{};
  const auto src = body.subspan(off, NodeAddr::SIZE);
  std::copy(src.begin(), src.end(), out.begin());
  return NodeAddr(out);
}

void putAddr(std::vector<uint8_t>& out, const NodeAddr& addr) {
  out.insert(out.end(), addr.bytes().begin(), addr.bytes().end());
}

void putLe(std::vector<uint8_t>& out, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) out.push_back(static_cast<uint8_t>(v >> (8U * i)));
}

LookupError fromCoordsError(CoordsWireError e) {
  return e == CoordsWireError::ZERO_COUNT ? LookupError::BAD_COUNT : LookupError::TRUNCATED_COORDS;
}

}  // namespace

const char* toString(LookupError error) {
  switch (error) {
    case LookupError::SHORT:
      return "short";
    case LookupError::TRUNCATED_COORDS:
      return "truncated_coords";
    case LookupError::BAD_COUNT:
      return "bad_count";
    case LookupError::TRUNCATED_PROOF:
      return "truncated_proof";
  }
  return "unknown";
}

Result<LookupRequest, LookupError> decodeLookupRequest(std::span<const uint8_t> body) {
  if (body.size() < LOOKUP_REQUEST_MIN_BODY) return LookupError::SHORT;
  auto coords = routing::decodeCoords(body.subspan(REQ_COORDS), /*allowEmpty=*/false);
  if (!coords.ok()) return fromCoordsError(coords.error());
  return LookupRequest{.requestId = fmp::loadLe64(body, 0),
                       .target = addrAt(body, REQ_TARGET),
                       .origin = addrAt(body, REQ_ORIGIN),
                       .ttl = body[REQ_TTL],
                       .minMtu = fmp::loadLe16(body, REQ_MIN_MTU),
                       .originCoords = std::move(coords.value().coords)};
}

Result<LookupResponse, LookupError> decodeLookupResponse(std::span<const uint8_t> body) {
  if (body.size() < LOOKUP_RESPONSE_MIN_BODY) return LookupError::SHORT;
  auto coords = routing::decodeCoords(body.subspan(RESP_COORDS), /*allowEmpty=*/false);
  if (!coords.ok()) return fromCoordsError(coords.error());
  const size_t proofOffset = RESP_COORDS + coords->size;
  if (body.size() < proofOffset + PROOF_SIZE) return LookupError::TRUNCATED_PROOF;
  LookupResponse response{.requestId = fmp::loadLe64(body, 0),
                          .target = addrAt(body, RESP_TARGET),
                          .pathMtu = fmp::loadLe16(body, RESP_PATH_MTU),
                          .targetCoords = std::move(coords.value().coords),
                          .proof = {}};
  const auto proof = body.subspan(proofOffset, PROOF_SIZE);
  std::copy(proof.begin(), proof.end(), response.proof.begin());
  return response;
}

std::vector<uint8_t> encodeLookupRequest(const LookupRequest& request) {
  std::vector<uint8_t> out;
  out.reserve(1 + LOOKUP_REQUEST_MIN_BODY +
              routing::COORD_ENTRY_SIZE * request.originCoords.path().size());
  out.push_back(LOOKUP_REQUEST_TYPE);
  putLe(out, request.requestId, 8);
  putAddr(out, request.target);
  putAddr(out, request.origin);
  out.push_back(request.ttl);
  putLe(out, request.minMtu, 2);
  routing::encodeCoords(request.originCoords, out);
  return out;
}

std::vector<uint8_t> encodeLookupResponse(const LookupResponse& response) {
  std::vector<uint8_t> out;
  out.reserve(1 + LOOKUP_RESPONSE_MIN_BODY +
              routing::COORD_ENTRY_SIZE * response.targetCoords.path().size());
  out.push_back(LOOKUP_RESPONSE_TYPE);
  putLe(out, response.requestId, 8);
  putAddr(out, response.target);
  putLe(out, response.pathMtu, 2);
  routing::encodeCoords(response.targetCoords, out);
  out.insert(out.end(), response.proof.begin(), response.proof.end());
  return out;
}

std::vector<uint8_t> lookupProofBytes(uint64_t requestId, const NodeAddr& target,
                                      const stp::Coordinates& coords) {
  std::vector<uint8_t> out;
  out.reserve(8 + NodeAddr::SIZE + routing::coordsWireSize(coords));
  putLe(out, requestId, 8);
  putAddr(out, target);
  routing::encodeCoords(coords, out);
  return out;
}

std::optional<Proof> signLookupProof(const crypto::Secp256k1Context& ctx,
                                     const crypto::SecretKey& key, crypto::Rng& rng,
                                     uint64_t requestId, const NodeAddr& target,
                                     const stp::Coordinates& coords) {
  return crypto::schnorrSign(ctx, key, lookupProofBytes(requestId, target, coords), rng);
}

bool verifyLookupProof(const crypto::Secp256k1Context& ctx, const crypto::PublicKey& targetKey,
                       const LookupResponse& response) {
  const auto bytes = lookupProofBytes(response.requestId, response.target, response.targetCoords);
  return crypto::schnorrVerify(ctx, targetKey.xOnly(), bytes, response.proof);
}

}  // namespace fips::router::lookup
