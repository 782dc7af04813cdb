// SPDX-License-Identifier: MIT
// PublicKey parsing and encoding (see public-key.h). Runs in any process;
// parsed bytes are untrusted. Curve checks use libsecp256k1's static
// context, which is enough for parsing (no secret is involved).
#include "lib/identity/public-key.h"

#include <algorithm>

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>

namespace fips::identity {

IdentityResult<PublicKey> PublicKey::fromXOnly(std::span<const uint8_t, XONLY_SIZE> xonly) {
  secp256k1_xonly_pubkey parsed;
  if (secp256k1_xonly_pubkey_parse(secp256k1_context_static, &parsed, xonly.data()) != 1) {
    return IdentityError{IdentityErrorKind::NOT_ON_CURVE,
                         "x coordinate is not on the secp256k1 curve"};
  }
  std::array<uint8_t, XONLY_SIZE> bytes;
  std::copy(xonly.begin(), xonly.end(), bytes.begin());
  return PublicKey(bytes, std::nullopt);
}

IdentityResult<PublicKey> PublicKey::fromCompressed(
    std::span<const uint8_t, COMPRESSED_SIZE> compressed) {
  secp256k1_pubkey parsed;
  if ((compressed[0] != 0x02 && compressed[0] != 0x03) ||
      secp256k1_ec_pubkey_parse(secp256k1_context_static, &parsed, compressed.data(),
                                compressed.size()) != 1) {
    return IdentityError{IdentityErrorKind::NOT_ON_CURVE, "not a valid compressed secp256k1 point"};
  }
  std::array<uint8_t, XONLY_SIZE> bytes;
  std::copy(compressed.begin() + 1, compressed.end(), bytes.begin());
  return PublicKey(bytes, compressed[0] == 0x03 ? Parity::ODD : Parity::EVEN);
}

std::array<uint8_t, PublicKey::COMPRESSED_SIZE> PublicKey::compressed() const {
  std::array<uint8_t, COMPRESSED_SIZE> out;
  out[0] = parity_ == Parity::ODD ? 0x03 : 0x02;
  std::copy(xonly_.begin(), xonly_.end(), out.begin() + 1);
  return out;
}

}  // namespace fips::identity
