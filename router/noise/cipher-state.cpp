// SPDX-License-Identifier: MIT
// Transport CipherStates (see cipher-state.h for the pipeline). Runs in
// fips-router on the data path: no allocation, no exceptions after construction.
#include "router/noise/cipher-state.h"

namespace fips::router::noise {

using crypto::AeadDirection;

uint64_t readU64Le(std::span<const uint8_t, 8> bytes) {
  uint64_t value = 0;
  for (size_t i = 8; i-- > 0;) value = (value << 8U) | bytes[i];
  return value;
}

SendCipher::SendCipher(const crypto::Secret<32>& key) : aead_(AeadDirection::SEAL, key.bytes()) {}

std::optional<uint64_t> SendCipher::seal(std::span<const uint8_t> aad,
                                         std::span<const uint8_t> plaintext,
                                         std::span<uint8_t> out) {
  if (exhausted() || plaintext.size() > MAX_TRANSPORT_PLAINTEXT) return std::nullopt;
  const uint64_t counter = counter_;
  if (!aead_.seal(counter, aad, plaintext, out)) return std::nullopt;
  ++counter_;
  return counter;
}

std::optional<uint64_t> SendCipher::sealFrame(std::span<uint8_t> header, size_t counterOffset,
                                              std::span<const uint8_t> plaintext,
                                              std::span<uint8_t> out) {
  if (counterOffset > header.size() || header.size() - counterOffset < 8) return std::nullopt;
  for (size_t i = 0; i < 8; ++i) {
    header[counterOffset + i] = static_cast<uint8_t>(counter_ >> (8U * i));
  }
  return seal(header, plaintext, out);
}

RecvCipher::RecvCipher(const crypto::Secret<32>& key) : aead_(AeadDirection::OPEN, key.bytes()) {}

OpenStatus RecvCipher::open(uint64_t counter, std::span<const uint8_t> aad,
                            std::span<const uint8_t> ciphertext, std::span<uint8_t> out) {
  if (ciphertext.size() < crypto::ChaChaPoly::TAG_SIZE ||
      ciphertext.size() > MAX_TRANSPORT_MESSAGE ||
      out.size() != ciphertext.size() - crypto::ChaChaPoly::TAG_SIZE) {
    return OpenStatus::BAD_LENGTH;
  }
  if (counter == UINT64_MAX) return OpenStatus::BAD_COUNTER;
  switch (window_.check(counter)) {
    case ReplayVerdict::DUPLICATE:
      return OpenStatus::DUPLICATE;
    case ReplayVerdict::TOO_OLD:
      return OpenStatus::TOO_OLD;
    case ReplayVerdict::FRESH:
      break;
  }
  if (!aead_.open(counter, aad, ciphertext, out)) return OpenStatus::DECRYPT_FAILED;
  window_.accept(counter);
  return OpenStatus::OK;
}

OpenStatus RecvCipher::openFrame(std::span<const uint8_t> header, size_t counterOffset,
                                 std::span<const uint8_t> ciphertext, std::span<uint8_t> out) {
  if (counterOffset > header.size() || header.size() - counterOffset < 8) {
    return OpenStatus::BAD_LENGTH;
  }
  const uint64_t counter = readU64Le(header.subspan(counterOffset).first<8>());
  return open(counter, header, ciphertext, out);
}

}  // namespace fips::router::noise
