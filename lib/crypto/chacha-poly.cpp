// SPDX-License-Identifier: MIT
// ChaCha20-Poly1305 over OpenSSL EVP (see chacha-poly.h). Runs in fips-router;
// open() authenticates untrusted ciphertext before anything is released.
#include "lib/crypto/chacha-poly.h"

#include <algorithm>
#include <array>
#include <new>

#include <openssl/crypto.h>

#include <climits>

namespace fips::crypto {

namespace {

using Nonce = std::array<uint8_t, ChaChaPoly::NONCE_SIZE>;

// 00 00 00 00 ‖ counter as u64 little-endian.
Nonce makeNonce(uint64_t counter) {
  Nonce nonce{};
  for (size_t i = 0; i < 8; ++i) nonce[4 + i] = static_cast<uint8_t>(counter >> (8U * i));
  return nonce;
}

constexpr size_t MAX_CHUNK = INT_MAX;

}  // namespace

ChaChaPoly::ChaChaPoly(AeadDirection direction)
    : ctx_(EVP_CIPHER_CTX_new()), direction_(direction) {
  if (!ctx_) throw std::bad_alloc();
}

ChaChaPoly::ChaChaPoly(AeadDirection direction, std::span<const uint8_t, KEY_SIZE> key)
    : ChaChaPoly(direction) {
  if (!setKey(key)) throw std::bad_alloc();
}

bool ChaChaPoly::setKey(std::span<const uint8_t, KEY_SIZE> key) {
  const int ok =
      direction_ == AeadDirection::SEAL
          ? EVP_EncryptInit_ex(ctx_.get(), EVP_chacha20_poly1305(), nullptr, key.data(), nullptr)
          : EVP_DecryptInit_ex(ctx_.get(), EVP_chacha20_poly1305(), nullptr, key.data(), nullptr);
  keyed_ = ok == 1;
  return keyed_;
}

bool ChaChaPoly::seal(uint64_t counter, std::span<const uint8_t> aad,
                      std::span<const uint8_t> plaintext, std::span<uint8_t> out) {
  if (!keyed_ || direction_ != AeadDirection::SEAL) return false;
  if (out.size() != plaintext.size() + TAG_SIZE || plaintext.size() > MAX_CHUNK - TAG_SIZE ||
      aad.size() > MAX_CHUNK) {
    return false;
  }
  EVP_CIPHER_CTX* ctx = ctx_.get();
  const Nonce nonce = makeNonce(counter);
  int len = 0;
  if (EVP_EncryptInit_ex(ctx, nullptr, nullptr, nullptr, nonce.data()) != 1) return false;
  if (!aad.empty() &&
      EVP_EncryptUpdate(ctx, nullptr, &len, aad.data(), static_cast<int>(aad.size())) != 1) {
    return false;
  }
  int written = 0;
  if (!plaintext.empty() && EVP_EncryptUpdate(ctx, out.data(), &written, plaintext.data(),
                                              static_cast<int>(plaintext.size())) != 1) {
    return false;
  }
  // ChaCha20-Poly1305 is a stream cipher: Final emits no bytes, but wants a
  // valid pointer even for an empty plaintext.
  std::array<uint8_t, 1> sink{};
  if (EVP_EncryptFinal_ex(ctx, plaintext.empty() ? sink.data() : out.data() + written, &len) != 1) {
    return false;
  }
  return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, static_cast<int>(TAG_SIZE),
                             out.data() + plaintext.size()) == 1;
}

bool ChaChaPoly::open(uint64_t counter, std::span<const uint8_t> aad,
                      std::span<const uint8_t> ciphertext, std::span<uint8_t> out) {
  if (!keyed_ || direction_ != AeadDirection::OPEN) return false;
  if (ciphertext.size() < TAG_SIZE || out.size() != ciphertext.size() - TAG_SIZE ||
      ciphertext.size() > MAX_CHUNK || aad.size() > MAX_CHUNK) {
    return false;
  }
  EVP_CIPHER_CTX* ctx = ctx_.get();
  const Nonce nonce = makeNonce(counter);
  // Copy the tag first: out may alias the ciphertext and is overwritten below.
  std::array<uint8_t, TAG_SIZE> tag{};
  const auto tagIn = ciphertext.last<TAG_SIZE>();
  std::copy(tagIn.begin(), tagIn.end(), tag.begin());
  int len = 0;
  int written = 0;
  bool ok = EVP_DecryptInit_ex(ctx, nullptr, nullptr, nullptr, nonce.data()) == 1;
  ok = ok && (aad.empty() ||
              EVP_DecryptUpdate(ctx, nullptr, &len, aad.data(), static_cast<int>(aad.size())) == 1);
  ok = ok && (out.empty() || EVP_DecryptUpdate(ctx, out.data(), &written, ciphertext.data(),
                                               static_cast<int>(out.size())) == 1);
  ok = ok &&
       EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, static_cast<int>(TAG_SIZE), tag.data()) == 1;
  std::array<uint8_t, 1> sink{};
  ok = ok && EVP_DecryptFinal_ex(ctx, out.empty() ? sink.data() : out.data() + written, &len) == 1;
  if (!ok) OPENSSL_cleanse(out.data(), out.size());
  return ok;
}

}  // namespace fips::crypto
