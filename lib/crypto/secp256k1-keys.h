// SPDX-License-Identifier: MIT
// The one public key type and the one secret key type of fips-cpp: a
// secp256k1 point (PublicKey) and a secret scalar with its point (SecretKey).
// Used by every process that handles keys: the router (Noise, signatures,
// peers), the supervisor (key file, config) and fipsctl (keygen, identity).
// Bytes parsed here may come from the network or from operators: parsing
// returns std::optional and never throws.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include <secp256k1.h>

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secret.h"

namespace fips::crypto {

// A valid secp256k1 point, kept both parsed (for ECDH) and as its 33-byte
// compressed encoding (0x02/0x03 ‖ X, big-endian X; FIPS spec 01 §1). A key
// known only by its X coordinate (an npub) is lifted to the point with even
// Y. A node's identity is its X coordinate, so two keys are equal when their
// X coordinates are, whatever their parity. A value type.
class PublicKey {
 public:
  static constexpr size_t COMPRESSED_SIZE = 33;
  static constexpr size_t XONLY_SIZE = 32;

  // Parses a 33-byte compressed key; nullopt if the size is not 33, the
  // prefix is not 02/03 or X is not on the curve.
  static std::optional<PublicKey> fromCompressed(std::span<const uint8_t> bytes);
  // Lifts a 32-byte x-only key (npub form) to the point with even Y (02 ‖ X);
  // nullopt if X is not on the curve. FIPS spec 01 §1.
  static std::optional<PublicKey> fromXOnly(std::span<const uint8_t, XONLY_SIZE> xonly);
  // Wraps an already-valid parsed key (from libsecp256k1 itself).
  static PublicKey fromRaw(const secp256k1_pubkey& raw);

  const std::array<uint8_t, COMPRESSED_SIZE>& compressed() const { return compressed_; }
  // The x-only form (BIP-340, npub): the compressed encoding without its
  // parity byte.
  std::span<const uint8_t, XONLY_SIZE> xOnly() const {
    return std::span<const uint8_t, COMPRESSED_SIZE>(compressed_).last<XONLY_SIZE>();
  }
  bool hasEvenY() const { return compressed_[0] == 0x02; }
  const secp256k1_pubkey& raw() const { return raw_; }
  // Same X coordinate (the parity is ignored, spec 01 §1).
  bool operator==(const PublicKey& other) const;

 private:
  PublicKey() = default;
  secp256k1_pubkey raw_{};
  std::array<uint8_t, COMPRESSED_SIZE> compressed_{};
};

// A valid secp256k1 secret key (32 big-endian bytes, 0 < k < n; wiped on
// destruction) together with its public key k·G. Move-only; clone() makes
// the few copies that must exist.
class SecretKey {
 public:
  static constexpr size_t SIZE = 32;

  // nullopt if secret is zero or not below the group order.
  static std::optional<SecretKey> fromSecret(const Secp256k1Context& ctx, Secret<SIZE> secret);
  // Copies and validates 32 bytes, as fromSecret.
  static std::optional<SecretKey> fromBytes(const Secp256k1Context& ctx,
                                            std::span<const uint8_t, SIZE> bytes);
  // Draws 32-byte candidates from rng until one is a valid scalar (at most
  // 8 tries); nullopt if the rng fails.
  static std::optional<SecretKey> generate(const Secp256k1Context& ctx, Rng& rng);

  const Secret<SIZE>& secret() const { return secret_; }
  const PublicKey& publicKey() const { return public_; }
  SecretKey clone() const { return SecretKey(secret_.clone(), public_); }
  // Constant-time comparison of the scalars.
  bool equals(const SecretKey& other) const { return secret_.equals(other.secret_); }

 private:
  SecretKey(Secret<SIZE> secret, PublicKey pub) : secret_(std::move(secret)), public_(pub) {}
  Secret<SIZE> secret_;
  PublicKey public_;
};

}  // namespace fips::crypto
