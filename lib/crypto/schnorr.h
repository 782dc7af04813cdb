// SPDX-License-Identifier: MIT
// BIP-340 Schnorr signatures over secp256k1 via libsecp256k1, with the FIPS
// convention of signing SHA-256(message). Runs in fips-router; verify() takes
// keys, messages and signatures from the network (untrusted) and never throws.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"

namespace fips::crypto {

// A 64-byte BIP-340 signature (R.x ‖ s).
using SchnorrSignature = std::array<uint8_t, 64>;

// Raw BIP-340 signing of a 32-byte message with 32 bytes of auxiliary
// randomness; nullopt if the secret is not a valid scalar.
std::optional<SchnorrSignature> bip340Sign(const Secp256k1Context& ctx, const Secret<32>& secret,
                                           std::span<const uint8_t, 32> message32,
                                           std::span<const uint8_t, 32> auxRand);

// Raw BIP-340 verification of a message of any length against a 32-byte
// x-only key. False for an invalid key, signature or message.
bool bip340Verify(const Secp256k1Context& ctx, std::span<const uint8_t, 32> xonlyKey,
                  std::span<const uint8_t> message, std::span<const uint8_t, 64> signature);

// FIPS signing (spec 01 §5, pitfall 6): BIP-340 signature of the 32-byte
// digest SHA-256(message), aux randomness from rng. Used for TreeAnnounce and
// LookupResponse proofs. nullopt if the rng fails.
std::optional<SchnorrSignature> schnorrSign(const Secp256k1Context& ctx, const SecretKey& key,
                                            std::span<const uint8_t> message, Rng& rng);

// FIPS verification: BIP-340 verify of SHA-256(message).
bool schnorrVerify(const Secp256k1Context& ctx, std::span<const uint8_t, 32> xonlyKey,
                   std::span<const uint8_t> message, std::span<const uint8_t, 64> signature);

}  // namespace fips::crypto
