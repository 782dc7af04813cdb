// SPDX-License-Identifier: MIT
// libsecp256k1 context lifetime (see secp256k1-context.h).
#include "lib/crypto/secp256k1-context.h"

#include <array>
#include <stdexcept>

#include <openssl/crypto.h>
#include <openssl/rand.h>

namespace fips::crypto {

Secp256k1Context::Secp256k1Context()
    : ctx_(secp256k1_context_create(SECP256K1_CONTEXT_SIGN | SECP256K1_CONTEXT_VERIFY)) {
  if (ctx_ == nullptr) throw std::runtime_error("secp256k1_context_create failed");
  std::array<unsigned char, 32> seed{};
  if (RAND_bytes(seed.data(), static_cast<int>(seed.size())) != 1 ||
      secp256k1_context_randomize(ctx_, seed.data()) != 1) {
    secp256k1_context_destroy(ctx_);
    throw std::runtime_error("secp256k1 context randomization failed");
  }
  OPENSSL_cleanse(seed.data(), seed.size());
}

Secp256k1Context::~Secp256k1Context() {
  secp256k1_context_destroy(ctx_);
}

}  // namespace fips::crypto
