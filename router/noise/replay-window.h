// SPDX-License-Identifier: MIT
// Anti-replay sliding window (RFC 6479 / WireGuard style, 2048 counters) as the
// reference keeps it at both FIPS layers. Runs in fips-router; counters come
// from untrusted frames, and accept() is called only after authentication.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace fips::router::noise {

// What check() thinks of a counter.
enum class ReplayVerdict : uint8_t { FRESH, DUPLICATE, TOO_OLD };

// State: highest counter accepted and a 2048-bit bitmap, bit d = counter
// highest - d seen (spec 01 §7). Counter 0 on a fresh window is FRESH.
class ReplayWindow {
 public:
  static constexpr uint64_t SIZE = 2048;

  // Cheap pre-check before decryption; does not modify the window.
  ReplayVerdict check(uint64_t counter) const;
  // Records counter as seen. Call only after the frame authenticated, so a
  // forged frame can never move the window.
  void accept(uint64_t counter);
  uint64_t highest() const { return highest_; }

 private:
  void shift(uint64_t by);

  uint64_t highest_ = 0;
  std::array<uint64_t, SIZE / 64> bitmap_{};
};

}  // namespace fips::router::noise
