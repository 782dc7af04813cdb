// SPDX-License-Identifier: MIT
// NodeAddr derivation and text forms (see node-addr.h). Runs in any process;
// fromHex input is untrusted.
#include "lib/identity/node-addr.h"

#include <algorithm>

#include "lib/crypto/sha256.h"
#include "lib/identity/hex.h"

namespace fips::identity {

NodeAddr NodeAddr::fromPublicKey(const crypto::PublicKey& key) {
  // FIPS spec 01 §3.1: NodeAddr = SHA-256(xonly)[0..16]
  crypto::Sha256Digest digest = crypto::sha256(key.xOnly());
  std::array<uint8_t, SIZE> bytes;
  std::copy_n(digest.begin(), SIZE, bytes.begin());
  return NodeAddr(bytes);
}

std::optional<NodeAddr> NodeAddr::fromHex(std::string_view text) {
  std::array<uint8_t, SIZE> bytes;
  if (!decodeHexInto(text, bytes)) return std::nullopt;
  return NodeAddr(bytes);
}

std::string NodeAddr::toHex() const {
  return identity::toHex(bytes_);
}

std::string NodeAddr::shortHex() const {
  return identity::toHex(std::span<const uint8_t>(bytes_).first(4)) + "...";
}

}  // namespace fips::identity
