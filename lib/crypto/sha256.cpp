// SPDX-License-Identifier: MIT
// SHA-256 through OpenSSL EVP (see sha256.h).
#include "lib/crypto/sha256.h"

#include <stdexcept>

namespace fips::crypto {

namespace {
struct MdCtxDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
}  // namespace

Sha256Digest sha256(std::initializer_list<std::span<const uint8_t>> parts) {
  std::unique_ptr<EVP_MD_CTX, MdCtxDeleter> ctx(EVP_MD_CTX_new());
  Sha256Digest out{};
  unsigned int len = 0;
  bool ok = ctx && EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) == 1;
  for (auto part : parts) {
    ok = ok && EVP_DigestUpdate(ctx.get(), part.data(), part.size()) == 1;
  }
  ok = ok && EVP_DigestFinal_ex(ctx.get(), out.data(), &len) == 1 && len == out.size();
  // OpenSSL fails here only on allocation failure: a bug-class condition.
  if (!ok) throw std::runtime_error("EVP SHA-256 failed");
  return out;
}

}  // namespace fips::crypto
