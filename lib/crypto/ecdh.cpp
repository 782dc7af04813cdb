// SPDX-License-Identifier: MIT
// x-only ECDH for the FIPS Noise handshakes (see ecdh.h). Runs in fips-router.
#include "lib/crypto/ecdh.h"

#include <algorithm>

#include <secp256k1_ecdh.h>

#include "lib/crypto/sha256.h"

namespace fips::crypto {

namespace {

// libsecp256k1 hash callback that hands back the raw X coordinate, so the
// hashing happens outside the C callback (no exception can cross it).
int copyXCoordinate(unsigned char* output, const unsigned char* x32, const unsigned char* /*y32*/,
                    void* /*data*/) {
  std::copy_n(x32, 32, output);
  return 1;
}

}  // namespace

std::optional<Secret<32>> ecdhXOnly(const Secp256k1Context& ctx, const Secret<32>& secret,
                                    const PublicKey& peer) {
  Secret<32> x;
  if (secp256k1_ecdh(ctx.get(), x.mutableBytes().data(), &peer.raw(), secret.bytes().data(),
                     copyXCoordinate, nullptr) != 1) {
    return std::nullopt;
  }
  Sha256Digest digest = sha256(x.bytes());
  Secret<32> out{std::span<const uint8_t, 32>(digest)};
  OPENSSL_cleanse(digest.data(), digest.size());
  return out;
}

}  // namespace fips::crypto
