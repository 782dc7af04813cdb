// SPDX-License-Identifier: MIT
// DH suites for the Noise pattern machine (see dh-suites.h). Runs in fips-router.
#include "router/noise/dh-suites.h"

#include "lib/crypto/ecdh.h"
#include "lib/crypto/x25519.h"

namespace fips::router::noise {

std::optional<crypto::PublicKey> Secp256k1Suite::parsePublic(std::span<const uint8_t> bytes) const {
  return crypto::PublicKey::fromCompressed(bytes);
}

std::optional<crypto::SecretKey> Secp256k1Suite::generate(crypto::Rng& rng) const {
  return crypto::SecretKey::generate(*ctx_, rng);
}

std::optional<crypto::Secret<32>> Secp256k1Suite::dh(const KeyPair& local,
                                                     const Public& remote) const {
  return crypto::ecdhXOnly(*ctx_, local.secret(), remote);
}

std::array<uint8_t, Secp256k1Suite::PUBLIC_SIZE> Secp256k1Suite::normalized(const Public& key) {
  std::array<uint8_t, PUBLIC_SIZE> out = key.compressed();
  out[0] = 0x02;
  return out;
}

std::optional<X25519Suite::Public> X25519Suite::parsePublic(std::span<const uint8_t> bytes) const {
  if (bytes.size() != PUBLIC_SIZE) return std::nullopt;
  Public key{};
  std::copy(bytes.begin(), bytes.end(), key.begin());
  return key;
}

std::optional<X25519Suite::KeyPair> X25519Suite::fromSecret(crypto::Secret<32> secret) {
  auto pub = crypto::x25519PublicKey(secret);
  if (!pub) return std::nullopt;
  return KeyPair{std::move(secret), *pub};
}

std::optional<X25519Suite::KeyPair> X25519Suite::generate(crypto::Rng& rng) const {
  crypto::Secret<32> secret;
  if (!rng.fill(secret.mutableBytes())) return std::nullopt;
  return fromSecret(std::move(secret));
}

std::optional<crypto::Secret<32>> X25519Suite::dh(const KeyPair& local,
                                                  const Public& remote) const {
  return crypto::x25519(local.secret, remote);
}

}  // namespace fips::router::noise
