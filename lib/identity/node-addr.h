// SPDX-License-Identifier: MIT
// NodeAddr: the 16-byte routing identifier derived from a public key
// (spec 01 §3.1). Used by every process that names nodes; fromHex accepts
// untrusted text and never throws.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "lib/crypto/secp256k1-keys.h"

namespace fips::identity {

// SHA-256(x-only public key)[0..16]. Ordered lexicographically over the 16
// bytes. A value type.
class NodeAddr {
 public:
  static constexpr size_t SIZE = 16;

  NodeAddr() = default;
  explicit NodeAddr(const std::array<uint8_t, SIZE>& bytes) : bytes_(bytes) {}

  // SHA-256 of the 32 x-only bytes (no prefix byte), first 16 bytes.
  static NodeAddr fromPublicKey(const crypto::PublicKey& key);
  // 32 hex characters (either case); nullopt otherwise.
  static std::optional<NodeAddr> fromHex(std::string_view text);

  const std::array<uint8_t, SIZE>& bytes() const { return bytes_; }
  // 32 lowercase hex characters.
  std::string toHex() const;
  // First 4 bytes as hex, then "...", for logs.
  std::string shortHex() const;

  auto operator<=>(const NodeAddr&) const = default;

 private:
  std::array<uint8_t, SIZE> bytes_{};
};

}  // namespace fips::identity
