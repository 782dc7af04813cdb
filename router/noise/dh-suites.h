// SPDX-License-Identifier: MIT
// The Diffie-Hellman suites the Noise pattern machine can be instantiated
// with: secp256k1 with FIPS x-only DH (production) and X25519 (standard test
// vectors only). Runs in fips-router; parsePublic() sees untrusted bytes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "lib/crypto/secret.h"

namespace fips::router::noise {

// secp256k1: 33-byte compressed keys on the wire, DH = SHA-256(X(sk·P)).
// Holds a borrowed context, which must outlive the suite and its handshakes.
class Secp256k1Suite {
 public:
  using Public = crypto::PublicKey;
  using KeyPair = crypto::SecretKey;
  static constexpr size_t PUBLIC_SIZE = 33;

  explicit Secp256k1Suite(const crypto::Secp256k1Context& ctx) : ctx_(&ctx) {}

  // nullopt unless bytes are a valid 33-byte compressed point.
  std::optional<Public> parsePublic(std::span<const uint8_t> bytes) const;
  // 32 bytes from rng as the secret (redrawn if not a valid scalar).
  std::optional<KeyPair> generate(crypto::Rng& rng) const;
  std::optional<crypto::Secret<32>> dh(const KeyPair& local, const Public& remote) const;
  static std::span<const uint8_t, PUBLIC_SIZE> encode(const Public& key) {
    return key.compressed();
  }
  static const Public& publicOf(const KeyPair& pair) { return pair.publicKey(); }
  // FIPS pre-message form: 0x02 ‖ X regardless of parity (spec 01 §6.2).
  static std::array<uint8_t, PUBLIC_SIZE> normalized(const Public& key);

 private:
  const crypto::Secp256k1Context* ctx_;
};

// X25519 through OpenSSL, 32-byte keys. Exists to prove the pattern machine
// against published Noise vectors; no FIPS wire path uses it.
class X25519Suite {
 public:
  using Public = std::array<uint8_t, 32>;
  struct KeyPair {
    crypto::Secret<32> secret;
    Public pub{};
    KeyPair clone() const { return KeyPair{secret.clone(), pub}; }
  };
  static constexpr size_t PUBLIC_SIZE = 32;

  std::optional<Public> parsePublic(std::span<const uint8_t> bytes) const;
  std::optional<KeyPair> generate(crypto::Rng& rng) const;
  // Builds a key pair from a fixed private key (vectors).
  static std::optional<KeyPair> fromSecret(crypto::Secret<32> secret);
  std::optional<crypto::Secret<32>> dh(const KeyPair& local, const Public& remote) const;
  static std::span<const uint8_t, PUBLIC_SIZE> encode(const Public& key) { return key; }
  static const Public& publicOf(const KeyPair& pair) { return pair.pub; }
  static Public normalized(const Public& key) { return key; }
};

}  // namespace fips::router::noise
