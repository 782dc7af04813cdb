// SPDX-License-Identifier: MIT
// BIP-340 Schnorr through libsecp256k1 (see schnorr.h). Runs in fips-router.
#include "lib/crypto/schnorr.h"

#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include "lib/crypto/sha256.h"

namespace fips::crypto {

namespace {

// Wipes a libsecp256k1 keypair (it embeds the secret scalar) on scope exit.
struct KeypairGuard {
  secp256k1_keypair pair{};
  ~KeypairGuard() { OPENSSL_cleanse(&pair, sizeof pair); }
};

}  // namespace

std::optional<SchnorrSignature> bip340Sign(const Secp256k1Context& ctx, const Secret<32>& secret,
                                           std::span<const uint8_t, 32> message32,
                                           std::span<const uint8_t, 32> auxRand) {
  KeypairGuard guard;
  if (secp256k1_keypair_create(ctx.get(), &guard.pair, secret.bytes().data()) != 1) {
    return std::nullopt;
  }
  SchnorrSignature sig{};
  if (secp256k1_schnorrsig_sign32(ctx.get(), sig.data(), message32.data(), &guard.pair,
                                  auxRand.data()) != 1) {
    return std::nullopt;
  }
  return sig;
}

bool bip340Verify(const Secp256k1Context& ctx, std::span<const uint8_t, 32> xonlyKey,
                  std::span<const uint8_t> message, std::span<const uint8_t, 64> signature) {
  secp256k1_xonly_pubkey key{};
  if (secp256k1_xonly_pubkey_parse(ctx.get(), &key, xonlyKey.data()) != 1) return false;
  return secp256k1_schnorrsig_verify(ctx.get(), signature.data(), message.data(), message.size(),
                                     &key) == 1;
}

std::optional<SchnorrSignature> schnorrSign(const Secp256k1Context& ctx, const SecretKey& key,
                                            std::span<const uint8_t> message, Rng& rng) {
  Secret<32> aux;
  if (!rng.fill(aux.mutableBytes())) return std::nullopt;
  const Sha256Digest digest = sha256(message);
  return bip340Sign(ctx, key.secret(), digest, aux.bytes());
}

bool schnorrVerify(const Secp256k1Context& ctx, std::span<const uint8_t, 32> xonlyKey,
                   std::span<const uint8_t> message, std::span<const uint8_t, 64> signature) {
  const Sha256Digest digest = sha256(message);
  return bip340Verify(ctx, xonlyKey, digest, signature);
}

}  // namespace fips::crypto
