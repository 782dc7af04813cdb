// SPDX-License-Identifier: MIT
// TreeAnnounce codec, semantic checks and declaration signatures (FIPS spec
// 03 §2, reference src/proto/stp/{wire,declaration}.rs). Runs in fips-router;
// bodies come from peers and are untrusted.
#include "router/stp/tree-announce.h"

#include <algorithm>

#include "router/fmp/fmp-constants.h"
#include "router/fmp/fmp-le.h"

namespace fips::router::stp {

namespace {

using fmp::loadLe16;
using fmp::loadLe64;
using fmp::storeLe16;
using fmp::storeLe64;

// Body offsets (after the type byte).
constexpr size_t VERSION_OFF = 0;
constexpr size_t SEQ_OFF = 1;
constexpr size_t TS_OFF = 9;
constexpr size_t PARENT_OFF = 17;
constexpr size_t COUNT_OFF = fmp::TREE_ANNOUNCE_COUNT_OFFSET;  // 33
constexpr size_t ENTRIES_OFF = COUNT_OFF + 2;                  // 35
static_assert(ENTRIES_OFF + fmp::SIGNATURE_SIZE == fmp::TREE_ANNOUNCE_MIN_BODY);

NodeAddr addrAt(std::span<const uint8_t> b, size_t off) {
  std::array<uint8_t, NodeAddr::SIZE> bytes{};
  std::copy_n(b.begin() + static_cast<std::ptrdiff_t>(off), NodeAddr::SIZE, bytes.begin());
  return NodeAddr(bytes);
}

void putAddr(std::span<uint8_t> b, size_t off, const NodeAddr& addr) {
  std::copy(addr.bytes().begin(), addr.bytes().end(), b.begin() + static_cast<std::ptrdiff_t>(off));
}

}  // namespace

std::array<uint8_t, DECLARATION_SIGNING_SIZE> signingBytes(const ParentDeclaration& decl) {
  std::array<uint8_t, DECLARATION_SIGNING_SIZE> out{};
  putAddr(out, 0, decl.node);
  putAddr(out, NodeAddr::SIZE, decl.parent);
  storeLe64(out, 2 * NodeAddr::SIZE, decl.sequence);
  storeLe64(out, 2 * NodeAddr::SIZE + 8, decl.timestamp);
  return out;
}

std::optional<crypto::SchnorrSignature> signDeclaration(const crypto::Secp256k1Context& ctx,
                                                        const crypto::SecretKey& key,
                                                        const ParentDeclaration& decl,
                                                        crypto::Rng& rng) {
  const auto bytes = signingBytes(decl);
  return crypto::schnorrSign(ctx, key, bytes, rng);
}

bool verifyDeclaration(const crypto::Secp256k1Context& ctx, std::span<const uint8_t, 32> xonlyKey,
                       const ParentDeclaration& decl, const crypto::SchnorrSignature& signature) {
  const auto bytes = signingBytes(decl);
  return crypto::schnorrVerify(ctx, xonlyKey, bytes, signature);
}

Coordinates toCoordinates(std::span<const AncestryEntry> ancestry) {
  std::vector<NodeAddr> path;
  path.reserve(ancestry.size());
  for (const auto& e : ancestry) path.push_back(e.addr);
  return Coordinates(std::move(path));
}

const char* toString(TreeAnnounceError error) {
  switch (error) {
    case TreeAnnounceError::SHORT:
      return "short";
    case TreeAnnounceError::BAD_VERSION:
      return "bad_version";
    case TreeAnnounceError::TRUNCATED:
      return "truncated";
    case TreeAnnounceError::ZERO_ENTRIES:
      return "zero_entries";
  }
  return "unknown";
}

std::variant<TreeAnnounce, TreeAnnounceError> decodeTreeAnnounce(std::span<const uint8_t> body) {
  if (body.size() < fmp::TREE_ANNOUNCE_MIN_BODY) return TreeAnnounceError::SHORT;
  if (body[VERSION_OFF] != fmp::TREE_ANNOUNCE_VERSION) return TreeAnnounceError::BAD_VERSION;
  const size_t count = loadLe16(body, COUNT_OFF);
  const size_t sigOff = ENTRIES_OFF + count * fmp::TREE_ENTRY_SIZE;
  if (body.size() < sigOff + fmp::SIGNATURE_SIZE) return TreeAnnounceError::TRUNCATED;
  if (count == 0) return TreeAnnounceError::ZERO_ENTRIES;

  TreeAnnounce out;
  out.ancestry.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const size_t off = ENTRIES_OFF + i * fmp::TREE_ENTRY_SIZE;
    out.ancestry.push_back(AncestryEntry{.addr = addrAt(body, off),
                                         .sequence = loadLe64(body, off + NodeAddr::SIZE),
                                         .timestamp = loadLe64(body, off + NodeAddr::SIZE + 8)});
  }
  out.declaration = ParentDeclaration{.node = out.ancestry[0].addr,
                                      .parent = addrAt(body, PARENT_OFF),
                                      .sequence = loadLe64(body, SEQ_OFF),
                                      .timestamp = loadLe64(body, TS_OFF)};
  std::copy_n(body.begin() + static_cast<std::ptrdiff_t>(sigOff), fmp::SIGNATURE_SIZE,
              out.signature.begin());
  return out;
}

std::vector<uint8_t> encodeTreeAnnounce(const TreeAnnounce& announce) {
  const size_t count = std::min<size_t>(announce.ancestry.size(), UINT16_MAX);
  std::vector<uint8_t> out(fmp::TREE_ANNOUNCE_MIN_BODY + count * fmp::TREE_ENTRY_SIZE);
  out[VERSION_OFF] = fmp::TREE_ANNOUNCE_VERSION;
  storeLe64(out, SEQ_OFF, announce.declaration.sequence);
  storeLe64(out, TS_OFF, announce.declaration.timestamp);
  putAddr(out, PARENT_OFF, announce.declaration.parent);
  storeLe16(out, COUNT_OFF, static_cast<uint16_t>(count));
  for (size_t i = 0; i < count; ++i) {
    const size_t off = ENTRIES_OFF + i * fmp::TREE_ENTRY_SIZE;
    const auto& e = announce.ancestry[i];
    putAddr(out, off, e.addr);
    storeLe64(out, off + NodeAddr::SIZE, e.sequence);
    storeLe64(out, off + NodeAddr::SIZE + 8, e.timestamp);
  }
  std::copy(announce.signature.begin(), announce.signature.end(),
            out.begin() + static_cast<std::ptrdiff_t>(ENTRIES_OFF + count * fmp::TREE_ENTRY_SIZE));
  return out;
}

const char* toString(AncestryError error) {
  switch (error) {
    case AncestryError::NODE_MISMATCH:
      return "node_mismatch";
    case AncestryError::ROOT_NOT_SINGLE:
      return "root_not_single";
    case AncestryError::TOO_SHORT:
      return "too_short";
    case AncestryError::PARENT_MISMATCH:
      return "parent_mismatch";
    case AncestryError::ROOT_NOT_MINIMUM:
      return "root_not_minimum";
  }
  return "unknown";
}

std::optional<AncestryError> validateSemantics(const TreeAnnounce& announce) {
  const auto& path = announce.ancestry;
  const auto& decl = announce.declaration;
  if (path.empty() || path[0].addr != decl.node) return AncestryError::NODE_MISMATCH;
  if (decl.isRoot()) {
    if (path.size() != 1) return AncestryError::ROOT_NOT_SINGLE;
  } else {
    if (path.size() < 2) return AncestryError::TOO_SHORT;
    if (path[1].addr != decl.parent) return AncestryError::PARENT_MISMATCH;
  }
  const auto smallest = std::min_element(
      path.begin(), path.end(), [](const auto& a, const auto& b) { return a.addr < b.addr; });
  if (smallest->addr != path.back().addr) return AncestryError::ROOT_NOT_MINIMUM;
  return std::nullopt;
}

}  // namespace fips::router::stp
