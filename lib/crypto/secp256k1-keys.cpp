// SPDX-License-Identifier: MIT
// secp256k1 key parsing and key-pair creation (see secp256k1-keys.h). Runs in
// fips-router; parseCompressed() sees untrusted bytes.
#include "lib/crypto/secp256k1-keys.h"

namespace fips::crypto {

PublicKey PublicKey::fromRaw(const Secp256k1Context& ctx, const secp256k1_pubkey& raw) {
  PublicKey key;
  key.raw_ = raw;
  size_t len = key.compressed_.size();
  // Serialising a parsed key cannot fail.
  (void)secp256k1_ec_pubkey_serialize(ctx.get(), key.compressed_.data(), &len, &raw,
                                      SECP256K1_EC_COMPRESSED);
  return key;
}

std::optional<PublicKey> PublicKey::parseCompressed(const Secp256k1Context& ctx,
                                                    std::span<const uint8_t> bytes) {
  // libsecp256k1 would also take 65-byte forms; the wire only carries 33.
  if (bytes.size() != COMPRESSED_SIZE || (bytes[0] != 0x02 && bytes[0] != 0x03)) {
    return std::nullopt;
  }
  PublicKey key;
  if (secp256k1_ec_pubkey_parse(ctx.get(), &key.raw_, bytes.data(), bytes.size()) != 1) {
    return std::nullopt;
  }
  std::copy(bytes.begin(), bytes.end(), key.compressed_.begin());
  return key;
}

std::optional<PublicKey> PublicKey::fromXOnly(const Secp256k1Context& ctx,
                                              std::span<const uint8_t, XONLY_SIZE> xonly) {
  std::array<uint8_t, COMPRESSED_SIZE> bytes{};
  bytes[0] = 0x02;
  std::copy(xonly.begin(), xonly.end(), bytes.begin() + 1);
  return parseCompressed(ctx, bytes);
}

std::optional<KeyPair> KeyPair::fromSecret(const Secp256k1Context& ctx, Secret<32> secret) {
  secp256k1_pubkey raw{};
  if (secp256k1_ec_pubkey_create(ctx.get(), &raw, secret.bytes().data()) != 1) {
    return std::nullopt;
  }
  return KeyPair(std::move(secret), PublicKey::fromRaw(ctx, raw));
}

std::optional<KeyPair> KeyPair::generate(const Secp256k1Context& ctx, Rng& rng) {
  // A uniform 32-byte string is a valid scalar with probability ~1 - 2^-128.
  for (int attempt = 0; attempt < 8; ++attempt) {
    Secret<32> candidate;
    if (!rng.fill(candidate.mutableBytes())) return std::nullopt;
    if (secp256k1_ec_seckey_verify(ctx.get(), candidate.bytes().data()) == 1) {
      return fromSecret(ctx, std::move(candidate));
    }
  }
  return std::nullopt;
}

}  // namespace fips::crypto
