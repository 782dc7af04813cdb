// SPDX-License-Identifier: MIT
// SecretKey: a node's secp256k1 secret scalar, and keypair generation. Held
// by the supervisor while it resolves the identity, by the router, and by
// fipsctl keygen. Construction from bytes validates the scalar and never
// throws; the bytes are wiped on destruction (crypto::Secret).
#pragma once

#include <cstdint>
#include <span>
#include <utility>

#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secret.h"
#include "lib/identity/identity-error.h"
#include "lib/identity/public-key.h"

namespace fips::identity {

// A valid secp256k1 secret key: 32 big-endian bytes, 0 < k < n. Move-only.
class SecretKey {
 public:
  static constexpr size_t SIZE = 32;

  // Validates and copies 32 bytes; SCALAR_OUT_OF_RANGE if they are zero or
  // not below the curve order n.
  static IdentityResult<SecretKey> fromBytes(std::span<const uint8_t, SIZE> bytes);

  // A fresh random key: RAND_bytes until the bytes are a valid scalar.
  // Throws std::runtime_error if the OpenSSL RNG fails.
  static SecretKey generate();

  const crypto::Secret<SIZE>& secret() const { return secret_; }

  // k·G: x-only key with its parity (libsecp256k1 keypair API).
  PublicKey publicKey(const crypto::Secp256k1Context& ctx) const;

  // Constant-time comparison of the scalars.
  bool equals(const SecretKey& other) const { return secret_.equals(other.secret_); }

 private:
  explicit SecretKey(crypto::Secret<SIZE> secret) : secret_(std::move(secret)) {}

  crypto::Secret<SIZE> secret_;
};

// A secret key and its public key.
struct Keypair {
  SecretKey secretKey;
  PublicKey publicKey;
};

// SecretKey::generate() and its public key. Throws std::runtime_error if
// the OpenSSL RNG fails.
Keypair generateKeypair(const crypto::Secp256k1Context& ctx);

}  // namespace fips::identity
