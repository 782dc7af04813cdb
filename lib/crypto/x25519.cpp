// SPDX-License-Identifier: MIT
// X25519 via OpenSSL (see x25519.h). Test-suite primitive only.
#include "lib/crypto/x25519.h"

#include <memory>

#include <openssl/evp.h>

namespace fips::crypto {

namespace {
struct PkeyDeleter {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct PkeyCtxDeleter {
  void operator()(EVP_PKEY_CTX* ctx) const { EVP_PKEY_CTX_free(ctx); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyDeleter>;
}  // namespace

std::optional<std::array<uint8_t, 32>> x25519PublicKey(const Secret<32>& secret) {
  PkeyPtr key(EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, secret.bytes().data(), 32));
  std::array<uint8_t, 32> pub{};
  size_t len = pub.size();
  if (!key || EVP_PKEY_get_raw_public_key(key.get(), pub.data(), &len) != 1 || len != 32) {
    return std::nullopt;
  }
  return pub;
}

std::optional<Secret<32>> x25519(const Secret<32>& secret, std::span<const uint8_t, 32> peer) {
  PkeyPtr ours(EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, secret.bytes().data(), 32));
  PkeyPtr theirs(EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nullptr, peer.data(), 32));
  if (!ours || !theirs) return std::nullopt;
  std::unique_ptr<EVP_PKEY_CTX, PkeyCtxDeleter> ctx(EVP_PKEY_CTX_new(ours.get(), nullptr));
  Secret<32> out;
  size_t len = out.SIZE;
  if (!ctx || EVP_PKEY_derive_init(ctx.get()) != 1 ||
      EVP_PKEY_derive_set_peer(ctx.get(), theirs.get()) != 1 ||
      EVP_PKEY_derive(ctx.get(), out.mutableBytes().data(), &len) != 1 || len != 32) {
    return std::nullopt;
  }
  return out;
}

}  // namespace fips::crypto
