// SPDX-License-Identifier: MIT
// ChaCha20-Poly1305 (RFC 8439, IETF 12-byte nonce) through OpenSSL EVP, one
// pre-keyed context per direction; only the nonce is reset per packet. Runs in
// fips-router; open() takes ciphertext from the network (untrusted).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include <openssl/evp.h>

namespace fips::crypto {

// Which operation a ChaChaPoly context performs.
enum class AeadDirection : uint8_t { SEAL, OPEN };

// One ChaCha20-Poly1305 key bound to one direction. The 12-byte nonce is
// 00 00 00 00 ‖ u64 LE counter (FIPS spec 00 conventions, 01 §6.1); the 16-byte
// tag follows the ciphertext. No allocation per call. Not copyable.
class ChaChaPoly {
 public:
  static constexpr size_t KEY_SIZE = 32;
  static constexpr size_t TAG_SIZE = 16;
  static constexpr size_t NONCE_SIZE = 12;

  // Allocates the EVP context (throws std::bad_alloc if OpenSSL cannot).
  explicit ChaChaPoly(AeadDirection direction);
  ChaChaPoly(AeadDirection direction, std::span<const uint8_t, KEY_SIZE> key);
  ChaChaPoly(const ChaChaPoly&) = delete;
  ChaChaPoly& operator=(const ChaChaPoly&) = delete;
  ChaChaPoly(ChaChaPoly&&) noexcept = default;
  ChaChaPoly& operator=(ChaChaPoly&&) noexcept = default;
  ~ChaChaPoly() = default;

  // Keys the context (OpenSSL copies the key into its own state, which
  // EVP_CIPHER_CTX_free wipes). Returns false if OpenSSL fails.
  [[nodiscard]] bool setKey(std::span<const uint8_t, KEY_SIZE> key);
  bool hasKey() const { return keyed_; }

  // Encrypts plaintext with nonce(counter) and aad into out, which must be
  // exactly plaintext.size() + 16 bytes (ciphertext ‖ tag); out may start at
  // plaintext.data() (in place). Returns false on a size mismatch or an
  // unkeyed/open-direction context.
  [[nodiscard]] bool seal(uint64_t counter, std::span<const uint8_t> aad,
                          std::span<const uint8_t> plaintext, std::span<uint8_t> out);

  // Authenticates and decrypts ciphertext ‖ tag into out (exactly
  // ciphertext.size() - 16 bytes; may alias the ciphertext start). Returns
  // false if the tag does not verify or sizes are wrong; out is then wiped.
  [[nodiscard]] bool open(uint64_t counter, std::span<const uint8_t> aad,
                          std::span<const uint8_t> ciphertext, std::span<uint8_t> out);

 private:
  struct CtxDeleter {
    void operator()(EVP_CIPHER_CTX* ctx) const { EVP_CIPHER_CTX_free(ctx); }
  };
  std::unique_ptr<EVP_CIPHER_CTX, CtxDeleter> ctx_;
  AeadDirection direction_;
  bool keyed_ = false;
};

}  // namespace fips::crypto
