// SPDX-License-Identifier: MIT
// HKDF-SHA256 through OpenSSL EVP_KDF (see hkdf.h). Runs in fips-router.
#include "lib/crypto/hkdf.h"

#include <array>
#include <memory>

#include <openssl/core_names.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

namespace fips::crypto {

namespace {
struct KdfDeleter {
  void operator()(EVP_KDF* kdf) const { EVP_KDF_free(kdf); }
};
struct KdfCtxDeleter {
  void operator()(EVP_KDF_CTX* ctx) const { EVP_KDF_CTX_free(ctx); }
};
}  // namespace

bool hkdf2(std::span<const uint8_t, 32> chainingKey, std::span<const uint8_t> ikm, HkdfPair& out) {
  std::unique_ptr<EVP_KDF, KdfDeleter> kdf(EVP_KDF_fetch(nullptr, OSSL_KDF_NAME_HKDF, nullptr));
  if (!kdf) return false;
  std::unique_ptr<EVP_KDF_CTX, KdfCtxDeleter> ctx(EVP_KDF_CTX_new(kdf.get()));
  if (!ctx) return false;
  // OpenSSL's param API takes non-const pointers; it only reads these.
  char digest[] = "SHA256";
  std::array<uint8_t, 1> emptyIkm{};
  void* salt = const_cast<uint8_t*>(chainingKey.data());
  void* key = ikm.empty() ? emptyIkm.data() : const_cast<uint8_t*>(ikm.data());
  std::array<OSSL_PARAM, 4> params = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, salt, chainingKey.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, key, ikm.size()),
      OSSL_PARAM_construct_end(),
  };
  Secret<64> okm;
  if (EVP_KDF_derive(ctx.get(), okm.mutableBytes().data(), okm.SIZE, params.data()) != 1) {
    return false;
  }
  out.first = Secret<32>(okm.bytes().first<32>());
  out.second = Secret<32>(okm.bytes().last<32>());
  return true;
}

}  // namespace fips::crypto
