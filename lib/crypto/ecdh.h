// SPDX-License-Identifier: MIT
// The FIPS Diffie-Hellman function on secp256k1: SHA-256 of the 32-byte
// X coordinate of sk·P, independent of P's parity. Runs in fips-router; P may
// come from the network but has already been parsed as a valid point.
#pragma once

#include <optional>

#include "lib/crypto/secp256k1-keys.h"
#include "lib/crypto/secret.h"

namespace fips::crypto {

// DH(sk, P) = SHA-256(X(sk·P)), 32 bytes (FIPS spec 01 §6.1, pitfall 1). This
// is NOT libsecp256k1's default ECDH hash (which hashes the parity byte too).
// nullopt if the secret is not a valid scalar.
std::optional<Secret<32>> ecdhXOnly(const Secp256k1Context& ctx, const Secret<32>& secret,
                                    const PublicKey& peer);

}  // namespace fips::crypto
