// SPDX-License-Identifier: MIT
// TreeAnnounce (link message 0x10): a node's signed parent declaration and its
// ancestry to the root (FIPS spec 03 §2). Codec, semantic checks and the
// 48-byte declaration signature. Runs in fips-router; bodies come from peers
// and are untrusted: decoding never throws and returns a typed error.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "lib/crypto/rng.h"
#include "lib/crypto/schnorr.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/node-addr.h"
#include "router/stp/coordinates.h"

namespace fips::router::stp {

// A node's declaration of its parent (spec 03 §1). parent == node declares
// itself root. sequence grows with every new declaration; timestamp is Unix
// seconds at creation.
struct ParentDeclaration {
  NodeAddr node;
  NodeAddr parent;
  uint64_t sequence = 0;
  uint64_t timestamp = 0;

  bool isRoot() const { return node == parent; }
  bool operator==(const ParentDeclaration&) const = default;
};

// Size of the signed declaration bytes.
constexpr size_t DECLARATION_SIGNING_SIZE = 48;

// node[16] ‖ parent[16] ‖ u64 LE sequence ‖ u64 LE timestamp (spec 03 §2,
// the reference's signing_bytes; the ancestry is not signed).
std::array<uint8_t, DECLARATION_SIGNING_SIZE> signingBytes(const ParentDeclaration& decl);

// BIP-340 signature over SHA-256(signingBytes(decl)) with the node's key (aux
// randomness from rng); nullopt if the rng fails.
std::optional<crypto::SchnorrSignature> signDeclaration(const crypto::Secp256k1Context& ctx,
                                                        const crypto::SecretKey& key,
                                                        const ParentDeclaration& decl,
                                                        crypto::Rng& rng);

// Verifies signature over SHA-256(signingBytes(decl)) against the declaring
// node's 32-byte x-only key. False for any invalid key or signature.
bool verifyDeclaration(const crypto::Secp256k1Context& ctx, std::span<const uint8_t, 32> xonlyKey,
                       const ParentDeclaration& decl, const crypto::SchnorrSignature& signature);

// One 32-byte ancestry entry: node_addr ‖ u64 LE sequence ‖ u64 LE timestamp,
// the declaration metadata of that ancestor.
struct AncestryEntry {
  NodeAddr addr;
  uint64_t sequence = 0;
  uint64_t timestamp = 0;

  bool operator==(const AncestryEntry&) const = default;
};

// The address path of an ancestry (self → root), as Coordinates.
Coordinates toCoordinates(std::span<const AncestryEntry> ancestry);

// A decoded TreeAnnounce. declaration.node is ancestry[0].addr (the node is
// not a separate wire field); ancestry is never empty once decoded.
struct TreeAnnounce {
  ParentDeclaration declaration;
  std::vector<AncestryEntry> ancestry;
  crypto::SchnorrSignature signature{};

  bool operator==(const TreeAnnounce&) const = default;
};

// Why a TreeAnnounce body failed to decode (reference src/proto/stp/wire.rs order).
enum class TreeAnnounceError : uint8_t {
  SHORT,         // fewer than 99 body bytes
  BAD_VERSION,   // version byte != 0x01
  TRUNCATED,     // fewer than 35 + 32n + 64 bytes for the ancestry and signature
  ZERO_ENTRIES,  // ancestry_count == 0
};

// Stable lower-case name ("short", "zero_entries"), for logs and stats.
const char* toString(TreeAnnounceError error);

// Decodes the body after the 0x10 type byte: version(1) ‖ seq(8) ‖ ts(8) ‖
// parent(16) ‖ count(2) ‖ count × entry(32) ‖ signature(64), integers LE.
// Trailing bytes after the signature are ignored (as the reference does).
// Semantics (who signed, path shape) are checked by validateSemantics() and
// verifyDeclaration(), not here.
std::variant<TreeAnnounce, TreeAnnounceError> decodeTreeAnnounce(std::span<const uint8_t> body);

// The body (without the 0x10 type byte), 99 + 32n bytes. The caller supplies
// a non-empty ancestry of at most 65535 entries (our own state).
std::vector<uint8_t> encodeTreeAnnounce(const TreeAnnounce& announce);

// Why a decoded announce's ancestry disagrees with its declaration (§2.1 step 4).
enum class AncestryError : uint8_t {
  NODE_MISMATCH,     // ancestry[0] is not the declaring node
  ROOT_NOT_SINGLE,   // a root declaration with more than one entry
  TOO_SHORT,         // a non-root declaration with one entry
  PARENT_MISMATCH,   // ancestry[1] != declared parent
  ROOT_NOT_MINIMUM,  // the last entry is not the smallest address of the path
};

// Stable lower-case name ("parent_mismatch"), for logs and stats.
const char* toString(AncestryError error);

// Spec 03 §2.1 step 4: root ⇒ exactly one entry; else ≥ 2 entries and
// ancestry[1] == parent; the last entry is the minimum address in the path.
std::optional<AncestryError> validateSemantics(const TreeAnnounce& announce);

}  // namespace fips::router::stp
