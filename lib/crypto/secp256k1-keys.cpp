// SPDX-License-Identifier: MIT
// secp256k1 key parsing and secret-key creation (see secp256k1-keys.h). Runs
// in every process that handles keys; fromCompressed() and fromXOnly() see
// untrusted bytes. Parsing and serialising use libsecp256k1's static context,
// which is enough when no secret is involved.
#include "lib/crypto/secp256k1-keys.h"

#include <algorithm>

namespace fips::crypto {

PublicKey PublicKey::fromRaw(const secp256k1_pubkey& raw) {
  PublicKey key;
  key.raw_ = raw;
  size_t len = key.compressed_.size();
  // Serialising a parsed key cannot fail.
  (void)secp256k1_ec_pubkey_serialize(secp256k1_context_static, key.compressed_.data(), &len, &raw,
                                      SECP256K1_EC_COMPRESSED);
  return key;
}

std::optional<PublicKey> PublicKey::fromCompressed(std::span<const uint8_t> bytes) {
  // libsecp256k1 would also take 65-byte forms; FIPS only uses 33.
  if (bytes.size() != COMPRESSED_SIZE || (bytes[0] != 0x02 && bytes[0] != 0x03)) {
    return std::nullopt;
  }
  PublicKey key;
  if (secp256k1_ec_pubkey_parse(secp256k1_context_static, &key.raw_, bytes.data(), bytes.size()) !=
      1) {
    return std::nullopt;
  }
  std::copy(bytes.begin(), bytes.end(), key.compressed_.begin());
  return key;
}

std::optional<PublicKey> PublicKey::fromXOnly(std::span<const uint8_t, XONLY_SIZE> xonly) {
  std::array<uint8_t, COMPRESSED_SIZE> bytes{};
  bytes[0] = 0x02;
  std::copy(xonly.begin(), xonly.end(), bytes.begin() + 1);
  return fromCompressed(bytes);
}

bool PublicKey::operator==(const PublicKey& other) const {
  return std::equal(compressed_.begin() + 1, compressed_.end(), other.compressed_.begin() + 1);
}

std::optional<SecretKey> SecretKey::fromSecret(const Secp256k1Context& ctx, Secret<SIZE> secret) {
  secp256k1_pubkey raw{};
  if (secp256k1_ec_pubkey_create(ctx.get(), &raw, secret.bytes().data()) != 1) {
    return std::nullopt;
  }
  return SecretKey(std::move(secret), PublicKey::fromRaw(raw));
}

std::optional<SecretKey> SecretKey::fromBytes(const Secp256k1Context& ctx,
                                              std::span<const uint8_t, SIZE> bytes) {
  return fromSecret(ctx, Secret<SIZE>(bytes));
}

std::optional<SecretKey> SecretKey::generate(const Secp256k1Context& ctx, Rng& rng) {
  // A uniform 32-byte string is a valid scalar with probability ~1 - 2^-128.
  for (int attempt = 0; attempt < 8; ++attempt) {
    Secret<SIZE> candidate;
    if (!rng.fill(candidate.mutableBytes())) return std::nullopt;
    if (secp256k1_ec_seckey_verify(ctx.get(), candidate.bytes().data()) == 1) {
      return fromSecret(ctx, std::move(candidate));
    }
  }
  return std::nullopt;
}

}  // namespace fips::crypto
