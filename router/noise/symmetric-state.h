// SPDX-License-Identifier: MIT
// Noise SymmetricState (chaining key, handshake hash, handshake CipherState)
// with the FIPS option of empty handshake AD. Runs in fips-router; decrypt
// inputs are handshake bytes from the network (untrusted).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "lib/crypto/secret.h"
#include "lib/crypto/sha256.h"

namespace fips::router::noise {

// Noise spec §5.2, as modified by FIPS spec 01 §6.2. Copyable only through
// clone() (it holds keys); every secret is wiped on destruction.
class SymmetricState {
 public:
  // h = name if ≤ 32 bytes (zero padded) else SHA-256(name); ck = h; no key.
  // emptyAd selects the FIPS departure (AEAD AD empty instead of h).
  SymmetricState(std::string_view protocolName, bool emptyAd);
  SymmetricState(SymmetricState&&) noexcept = default;
  SymmetricState& operator=(SymmetricState&&) noexcept = default;
  ~SymmetricState() = default;

  SymmetricState clone() const;

  // h = SHA-256(h ‖ data).
  void mixHash(std::span<const uint8_t> data);
  // (ck, k) = HKDF(ck, ikm); n = 0. False only if OpenSSL fails.
  [[nodiscard]] bool mixKey(std::span<const uint8_t> ikm);
  // out = plaintext if no key yet, else AEAD(k, n++, ad, plaintext) (size +16);
  // then MixHash(out). out.size() must be encryptedSize(plaintext.size()).
  [[nodiscard]] bool encryptAndHash(std::span<const uint8_t> plaintext, std::span<uint8_t> out);
  // The inverse; false if the tag fails (state then unchanged except n, which
  // the caller discards by restoring a clone).
  [[nodiscard]] bool decryptAndHash(std::span<const uint8_t> ciphertext, std::span<uint8_t> out);
  // (k1, k2) = HKDF(ck, empty). False only if OpenSSL fails.
  [[nodiscard]] bool split(crypto::Secret<32>& k1, crypto::Secret<32>& k2) const;

  size_t encryptedSize(size_t plaintextSize) const { return plaintextSize + (hasKey_ ? 16 : 0); }
  bool hasKey() const { return hasKey_; }
  const crypto::Sha256Digest& handshakeHash() const { return h_; }
  std::span<const uint8_t, 32> chainingKey() const { return ck_.bytes(); }

 private:
  SymmetricState() = default;
  std::span<const uint8_t> ad() const;

  crypto::Secret<32> ck_;
  crypto::Sha256Digest h_{};
  crypto::Secret<32> k_;
  uint64_t n_ = 0;
  bool hasKey_ = false;
  bool emptyAd_ = true;
};

}  // namespace fips::router::noise
