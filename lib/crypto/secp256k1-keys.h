// SPDX-License-Identifier: MIT
// secp256k1 public keys and key pairs as raw 32/33-byte values (no identity
// encodings here). Runs in fips-router; public keys parsed here come from the
// network and are untrusted, so parsing returns std::optional.
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

// A valid secp256k1 point, kept both parsed and as its 33-byte compressed
// encoding (0x02/0x03 ‖ X, big-endian X; FIPS spec 01 §1).
class PublicKey {
 public:
  static constexpr size_t COMPRESSED_SIZE = 33;
  static constexpr size_t XONLY_SIZE = 32;

  // Parses a 33-byte compressed key; nullopt if the prefix is not 02/03 or X
  // is not on the curve.
  static std::optional<PublicKey> parseCompressed(const Secp256k1Context& ctx,
                                                  std::span<const uint8_t> bytes);
  // Lifts a 32-byte x-only key (npub form) to the point with even Y (02 ‖ X);
  // nullopt if X is not on the curve. FIPS spec 01 §1.
  static std::optional<PublicKey> fromXOnly(const Secp256k1Context& ctx,
                                            std::span<const uint8_t, XONLY_SIZE> xonly);
  // Wraps an already-valid parsed key (from libsecp256k1 itself).
  static PublicKey fromRaw(const Secp256k1Context& ctx, const secp256k1_pubkey& raw);

  const std::array<uint8_t, COMPRESSED_SIZE>& compressed() const { return compressed_; }
  // The x-only form: the compressed encoding without its parity byte.
  std::span<const uint8_t, XONLY_SIZE> xOnly() const {
    return std::span<const uint8_t, COMPRESSED_SIZE>(compressed_).last<XONLY_SIZE>();
  }
  bool hasEvenY() const { return compressed_[0] == 0x02; }
  const secp256k1_pubkey& raw() const { return raw_; }
  bool operator==(const PublicKey& other) const { return compressed_ == other.compressed_; }

 private:
  PublicKey() = default;
  secp256k1_pubkey raw_{};
  std::array<uint8_t, COMPRESSED_SIZE> compressed_{};
};

// A secret scalar (wiped on destruction) and its public key.
class KeyPair {
 public:
  // nullopt if secret is zero or not below the group order.
  static std::optional<KeyPair> fromSecret(const Secp256k1Context& ctx, Secret<32> secret);
  // Draws 32-byte candidates from rng until one is a valid scalar (at most
  // 8 tries); nullopt if the rng fails.
  static std::optional<KeyPair> generate(const Secp256k1Context& ctx, Rng& rng);

  const Secret<32>& secret() const { return secret_; }
  const PublicKey& publicKey() const { return public_; }
  KeyPair clone() const { return KeyPair(secret_.clone(), public_); }

 private:
  KeyPair(Secret<32> secret, PublicKey pub) : secret_(std::move(secret)), public_(pub) {}
  Secret<32> secret_;
  PublicKey public_;
};

}  // namespace fips::crypto
