// SPDX-License-Identifier: MIT
// Noise SymmetricState (see symmetric-state.h). Runs in fips-router.
#include "router/noise/symmetric-state.h"

#include <algorithm>

#include "lib/crypto/chacha-poly.h"
#include "lib/crypto/hkdf.h"

namespace fips::router::noise {

using crypto::AeadDirection;
using crypto::ChaChaPoly;

SymmetricState::SymmetricState(std::string_view protocolName, bool emptyAd) : emptyAd_(emptyAd) {
  const auto* name = reinterpret_cast<const uint8_t*>(protocolName.data());
  if (protocolName.size() <= h_.size()) {
    std::copy_n(name, protocolName.size(), h_.begin());
  } else {
    h_ = crypto::sha256(std::span<const uint8_t>(name, protocolName.size()));
  }
  ck_ = crypto::Secret<32>(std::span<const uint8_t, 32>(h_));
}

SymmetricState SymmetricState::clone() const {
  SymmetricState copy;
  copy.ck_ = ck_.clone();
  copy.h_ = h_;
  copy.k_ = k_.clone();
  copy.n_ = n_;
  copy.hasKey_ = hasKey_;
  copy.emptyAd_ = emptyAd_;
  return copy;
}

std::span<const uint8_t> SymmetricState::ad() const {
  return emptyAd_ ? std::span<const uint8_t>() : std::span<const uint8_t>(h_);
}

void SymmetricState::mixHash(std::span<const uint8_t> data) {
  h_ = crypto::sha256({h_, data});
}

bool SymmetricState::mixKey(std::span<const uint8_t> ikm) {
  crypto::HkdfPair out;
  if (!crypto::hkdf2(ck_.bytes(), ikm, out)) return false;
  ck_ = std::move(out.first);
  k_ = std::move(out.second);
  n_ = 0;
  hasKey_ = true;
  return true;
}

bool SymmetricState::encryptAndHash(std::span<const uint8_t> plaintext, std::span<uint8_t> out) {
  if (out.size() != encryptedSize(plaintext.size())) return false;
  if (!hasKey_) {
    std::copy(plaintext.begin(), plaintext.end(), out.begin());
  } else {
    // Handshake nonces never approach 2^64 - 1 (a few messages per key).
    ChaChaPoly aead(AeadDirection::SEAL, k_.bytes());
    if (!aead.seal(n_, ad(), plaintext, out)) return false;
    ++n_;
  }
  mixHash(out);
  return true;
}

bool SymmetricState::decryptAndHash(std::span<const uint8_t> ciphertext, std::span<uint8_t> out) {
  if (ciphertext.size() != encryptedSize(out.size())) return false;
  if (!hasKey_) {
    std::copy(ciphertext.begin(), ciphertext.end(), out.begin());
  } else {
    ChaChaPoly aead(AeadDirection::OPEN, k_.bytes());
    if (!aead.open(n_, ad(), ciphertext, out)) return false;
    ++n_;
  }
  mixHash(ciphertext);
  return true;
}

bool SymmetricState::split(crypto::Secret<32>& k1, crypto::Secret<32>& k2) const {
  crypto::HkdfPair out;
  if (!crypto::hkdf2(ck_.bytes(), {}, out)) return false;
  k1 = std::move(out.first);
  k2 = std::move(out.second);
  return true;
}

}  // namespace fips::router::noise
