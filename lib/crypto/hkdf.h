// SPDX-License-Identifier: MIT
// HKDF-SHA256 (RFC 5869) through OpenSSL's EVP_KDF "HKDF", in the two-output
// form Noise uses. Runs in fips-router; inputs are keys and DH outputs we
// computed ourselves (never raw peer bytes).
#pragma once

#include <cstdint>
#include <span>

#include "lib/crypto/secret.h"

namespace fips::crypto {

// Two 32-byte HKDF outputs.
struct HkdfPair {
  Secret<32> first;
  Secret<32> second;
};

// HKDF-SHA256 with salt = chainingKey, IKM = ikm (may be empty), info = empty,
// L = 64; returns (bytes 0..32, bytes 32..64). FIPS spec 01 §6.1. Bit-identical
// to Noise's HMAC-based HKDF with two outputs. Returns false only if OpenSSL
// fails (allocation); the outputs are then zero.
[[nodiscard]] bool hkdf2(std::span<const uint8_t, 32> chainingKey, std::span<const uint8_t> ikm,
                         HkdfPair& out);

}  // namespace fips::crypto
