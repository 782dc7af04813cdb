// SPDX-License-Identifier: MIT
// SecretKey validation, generation and public-key derivation (see
// secret-key.h). Runs in the supervisor, the router and fipsctl; bytes given
// to fromBytes are untrusted. Every libsecp256k1 temporary holding the secret
// is cleansed before return.
#include "lib/identity/secret-key.h"

#include <stdexcept>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <secp256k1.h>
#include <secp256k1_extrakeys.h>

namespace fips::identity {

namespace {

bool isZero(std::span<const uint8_t, SecretKey::SIZE> bytes) {
  uint8_t acc = 0;
  for (uint8_t b : bytes) acc = static_cast<uint8_t>(acc | b);
  return acc == 0;
}

}  // namespace

IdentityResult<SecretKey> SecretKey::fromBytes(std::span<const uint8_t, SIZE> bytes) {
  if (secp256k1_ec_seckey_verify(secp256k1_context_static, bytes.data()) != 1) {
    return IdentityError{IdentityErrorKind::SCALAR_OUT_OF_RANGE,
                         isZero(bytes) ? "secret key is zero, not a valid scalar"
                                       : "secret key is not below the curve order n, "
                                         "not a valid scalar"};
  }
  return SecretKey(crypto::Secret<SIZE>(bytes));
}

SecretKey SecretKey::generate() {
  crypto::Secret<SIZE> candidate;
  for (;;) {
    if (RAND_bytes(candidate.mutableBytes().data(), static_cast<int>(SIZE)) != 1) {
      throw std::runtime_error("RAND_bytes failed while generating a secret key");
    }
    if (secp256k1_ec_seckey_verify(secp256k1_context_static, candidate.bytes().data()) == 1) {
      return SecretKey(std::move(candidate));
    }
  }
}

PublicKey SecretKey::publicKey(const crypto::Secp256k1Context& ctx) const {
  secp256k1_keypair keypair;
  secp256k1_xonly_pubkey xonly;
  int parity = 0;
  // fromBytes/generate checked the scalar, so these cannot fail.
  int ok = secp256k1_keypair_create(ctx.get(), &keypair, secret_.bytes().data());
  ok &= secp256k1_keypair_xonly_pub(ctx.get(), &xonly, &parity, &keypair);
  OPENSSL_cleanse(&keypair, sizeof keypair);
  std::array<uint8_t, PublicKey::XONLY_SIZE> x;
  ok &= secp256k1_xonly_pubkey_serialize(ctx.get(), x.data(), &xonly);
  if (ok != 1) throw std::logic_error("secp256k1 rejected a validated secret key");
  return PublicKey(x, parity == 1 ? Parity::ODD : Parity::EVEN);
}

Keypair generateKeypair(const crypto::Secp256k1Context& ctx) {
  SecretKey secretKey = SecretKey::generate();
  PublicKey publicKey = secretKey.publicKey(ctx);
  return Keypair{std::move(secretKey), publicKey};
}

}  // namespace fips::identity
