// SPDX-License-Identifier: MIT
// X25519 (RFC 7748) through OpenSSL EVP_PKEY raw keys. Used only to run the
// generic Noise pattern machine against the published 25519 test vectors; no
// FIPS wire path uses it. Runs in tests; inputs are test vectors.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "lib/crypto/secret.h"

namespace fips::crypto {

// The 32-byte public key for a 32-byte X25519 private key; nullopt if OpenSSL fails.
std::optional<std::array<uint8_t, 32>> x25519PublicKey(const Secret<32>& secret);

// X25519(secret, peer) → 32-byte shared secret; nullopt if OpenSSL fails or
// the result is all-zero (low-order peer point).
std::optional<Secret<32>> x25519(const Secret<32>& secret, std::span<const uint8_t, 32> peer);

}  // namespace fips::crypto
