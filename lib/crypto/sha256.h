// SPDX-License-Identifier: MIT
// SHA-256 (FIPS 180-4) through OpenSSL EVP. Runs in any process; inputs are
// plain bytes and may be untrusted.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>

#include <openssl/evp.h>

namespace fips::crypto {

// A 32-byte SHA-256 digest.
using Sha256Digest = std::array<uint8_t, 32>;

// SHA-256 of the concatenation of the given byte spans.
Sha256Digest sha256(std::initializer_list<std::span<const uint8_t>> parts);

// SHA-256 of one byte span.
inline Sha256Digest sha256(std::span<const uint8_t> data) {
  return sha256({data});
}

}  // namespace fips::crypto
