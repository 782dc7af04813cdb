// SPDX-License-Identifier: MIT
// PublicKey: a secp256k1 public key as FIPS uses it, x-only (BIP-340) plus
// the Y parity when known. Used by every process that handles identities;
// the parsing constructors accept untrusted bytes and never throw.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "lib/identity/identity-error.h"

namespace fips::identity {

// Parity of the Y coordinate of a curve point.
enum class Parity { EVEN, ODD };

// A point on secp256k1 known by its 32-byte X coordinate, with the parity of
// Y when it is known (from a secret key or a compressed encoding) and
// unknown when it came from an npub (spec 01 §1). A value type.
class PublicKey {
 public:
  static constexpr size_t XONLY_SIZE = 32;
  static constexpr size_t COMPRESSED_SIZE = 33;

  // Parses an x-only key; NOT_ON_CURVE if X is not the X of a curve point.
  // The parity is unknown.
  static IdentityResult<PublicKey> fromXOnly(std::span<const uint8_t, XONLY_SIZE> xonly);
  // Parses a 33-byte compressed point (0x02/0x03 || X); NOT_ON_CURVE if it
  // is not a valid point. The parity is kept.
  static IdentityResult<PublicKey> fromCompressed(
      std::span<const uint8_t, COMPRESSED_SIZE> compressed);
  const std::array<uint8_t, XONLY_SIZE>& xOnly() const { return xonly_; }
  std::optional<Parity> parity() const { return parity_; }
  // 0x02 || X when Y is even or its parity is unknown (the even-Y
  // assumption of spec 01 §1), 0x03 || X when it is odd.
  std::array<uint8_t, COMPRESSED_SIZE> compressed() const;

  // Two keys name the same identity when their X coordinates match; the
  // parity is ignored.
  bool operator==(const PublicKey& other) const { return xonly_ == other.xonly_; }

 private:
  // SecretKey builds keys from libsecp256k1 output, already on the curve.
  friend class SecretKey;

  PublicKey(const std::array<uint8_t, XONLY_SIZE>& xonly, std::optional<Parity> parity)
      : xonly_(xonly), parity_(parity) {}

  std::array<uint8_t, XONLY_SIZE> xonly_;
  std::optional<Parity> parity_;
};

}  // namespace fips::identity
