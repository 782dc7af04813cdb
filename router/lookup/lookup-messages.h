// SPDX-License-Identifier: MIT
// LookupRequest (link msg 0x30) and LookupResponse (link msg 0x31): the
// coordinate discovery messages, their proof bytes and the BIP-340 proof
// (FIPS spec 03 §5.1, §5.2; src/proto/lookup/wire.rs). Runs in fips-router;
// decoded messages come from peers and are untrusted.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "lib/result.h"
#include "router/stp/coordinates.h"

namespace fips::router::lookup {

using identity::NodeAddr;

constexpr uint8_t LOOKUP_REQUEST_TYPE = 0x30;
constexpr uint8_t LOOKUP_RESPONSE_TYPE = 0x31;
// Body = bytes after the type byte.
constexpr size_t LOOKUP_REQUEST_MIN_BODY =
    45;  // id 8 ‖ target ‖ origin ‖ ttl ‖ min_mtu 2 ‖ count 2
constexpr size_t LOOKUP_RESPONSE_MIN_BODY = 92;  // id 8 ‖ target ‖ path_mtu 2 ‖ count 2 ‖ proof 64
constexpr size_t PROOF_SIZE = 64;

using Proof = std::array<uint8_t, PROOF_SIZE>;

// Why a lookup message body did not decode.
enum class LookupError : uint8_t {
  SHORT,             // body below the minimum (45 request / 92 response)
  TRUNCATED_COORDS,  // the coordinate count needs more bytes than follow
  BAD_COUNT,         // coordinate count 0
  TRUNCATED_PROOF,   // fewer than 64 proof bytes after the coordinates
};

// Number of LookupError values, for per-reason counters.
constexpr size_t LOOKUP_ERROR_COUNT = 4;

// Name for logs and stats ("truncated_proof").
const char* toString(LookupError error);

// Spec 03 §5.1. All integers LE.
struct LookupRequest {
  uint64_t requestId = 0;
  NodeAddr target;
  NodeAddr origin;
  uint8_t ttl = 0;
  uint16_t minMtu = 0;  // origin sends 0; carried, never enforced
  stp::Coordinates originCoords;
  bool operator==(const LookupRequest&) const = default;
};

// Spec 03 §5.2. pathMtu (bytes) is a transit annotation, not covered by the proof.
struct LookupResponse {
  uint64_t requestId = 0;
  NodeAddr target;
  uint16_t pathMtu = 0xFFFF;
  stp::Coordinates targetCoords;
  Proof proof{};
  bool operator==(const LookupResponse&) const = default;
};

// Decodes a body (after 0x30). Trailing bytes are ignored.
Result<LookupRequest, LookupError> decodeLookupRequest(std::span<const uint8_t> body);
// Decodes a body (after 0x31). Trailing bytes after the proof are ignored.
Result<LookupResponse, LookupError> decodeLookupResponse(std::span<const uint8_t> body);

// The whole link message, type byte included (46 + 16n / 93 + 16n bytes).
std::vector<uint8_t> encodeLookupRequest(const LookupRequest& request);
std::vector<uint8_t> encodeLookupResponse(const LookupResponse& response);

// proof_bytes = u64 LE request_id ‖ target(16) ‖ u16 LE n ‖ coords(16·n).
std::vector<uint8_t> lookupProofBytes(uint64_t requestId, const NodeAddr& target,
                                      const stp::Coordinates& coords);

// BIP-340 signature over SHA-256(proof_bytes) with the target's key (spec 01
// §5); nullopt if the rng fails.
std::optional<Proof> signLookupProof(const crypto::Secp256k1Context& ctx,
                                     const crypto::SecretKey& key, crypto::Rng& rng,
                                     uint64_t requestId, const NodeAddr& target,
                                     const stp::Coordinates& coords);

// True if response.proof is the target's signature over its proof bytes.
bool verifyLookupProof(const crypto::Secp256k1Context& ctx, const crypto::PublicKey& targetKey,
                       const LookupResponse& response);

}  // namespace fips::router::lookup
