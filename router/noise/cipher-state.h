// SPDX-License-Identifier: MIT
// Transport-phase CipherStates: one pre-keyed ChaCha20-Poly1305 context per
// direction, a 64-bit send counter carried explicitly on the wire, and the
// replay window on receive (check → decrypt → accept). Runs in fips-router on
// the data path; open*() takes untrusted frames and never throws or allocates.
//
// Pipeline: seal: reserve counter → write it LE into the header → AEAD with
// AAD = header → counter++. open: read counter → replay check → AEAD open →
// accept counter. One caller thread; buffers are borrowed for the call only.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "lib/crypto/chacha-poly.h"
#include "lib/crypto/secret.h"
#include "router/noise/replay-window.h"

namespace fips::router::noise {

// Largest transport message (ciphertext + tag) and plaintext, in bytes (spec 01 §7).
constexpr size_t MAX_TRANSPORT_MESSAGE = 65535;
constexpr size_t MAX_TRANSPORT_PLAINTEXT = MAX_TRANSPORT_MESSAGE - 16;

// Why a received frame was dropped (or OK).
enum class OpenStatus : uint8_t {
  OK,
  BAD_LENGTH,      // shorter than a tag, too long, or output size mismatch
  BAD_COUNTER,     // u64 max, which no sender ever uses
  DUPLICATE,       // counter already accepted
  TOO_OLD,         // counter more than 2048 below the highest accepted
  DECRYPT_FAILED,  // tag did not verify (window untouched)
};

// Sending half. The counter starts at 0; u64 max is never used, so the last
// usable counter is 2^64 - 2, after which seal fails (the session must rekey).
class SendCipher {
 public:
  explicit SendCipher(const crypto::Secret<32>& key);

  uint64_t nextCounter() const { return counter_; }
  bool exhausted() const { return counter_ == UINT64_MAX; }

  // Writes the next counter as u64 LE into header[counterOffset, +8), then
  // seals plaintext with AAD = the whole header into out (plaintext + 16
  // bytes; may alias plaintext). Returns the counter used, or nullopt if the
  // counter space is exhausted or sizes are wrong. FMP: 16-byte header,
  // offset 8; FSP: 12-byte header, offset 4 (spec 02 §3.1, 04 §3).
  std::optional<uint64_t> sealFrame(std::span<uint8_t> header, size_t counterOffset,
                                    std::span<const uint8_t> plaintext, std::span<uint8_t> out);
  // Seals with nonce = next counter and the given AAD (the counter travels
  // some other way). Same results as sealFrame.
  std::optional<uint64_t> seal(std::span<const uint8_t> aad, std::span<const uint8_t> plaintext,
                               std::span<uint8_t> out);

  // Test hook: jump the counter (e.g. to exercise exhaustion).
  void setCounterForTest(uint64_t counter) { counter_ = counter; }

 private:
  crypto::ChaChaPoly aead_;
  uint64_t counter_ = 0;
};

// Receiving half with its replay window.
class RecvCipher {
 public:
  explicit RecvCipher(const crypto::Secret<32>& key);

  // Replay-checks counter, opens ciphertext ‖ tag with AAD into out
  // (ciphertext.size() - 16 bytes), and only then accepts the counter.
  OpenStatus open(uint64_t counter, std::span<const uint8_t> aad,
                  std::span<const uint8_t> ciphertext, std::span<uint8_t> out);
  // Reads the counter (u64 LE) from header[counterOffset, +8) and opens with
  // AAD = header.
  OpenStatus openFrame(std::span<const uint8_t> header, size_t counterOffset,
                       std::span<const uint8_t> ciphertext, std::span<uint8_t> out);
  const ReplayWindow& window() const { return window_; }

 private:
  crypto::ChaChaPoly aead_;
  ReplayWindow window_;
};

// Reads a u64 little-endian value from 8 bytes.
uint64_t readU64Le(std::span<const uint8_t, 8> bytes);

}  // namespace fips::router::noise
