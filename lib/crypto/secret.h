// SPDX-License-Identifier: MIT
// Secret<N>: fixed-size secret bytes (keys, chaining keys, DH outputs) that are
// wiped with OPENSSL_cleanse when destroyed. Used by every process that holds
// key material (router, supervisor while it reads the key file, fipsctl).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include <openssl/crypto.h>

#include <fmt/format.h>

namespace fips::crypto {

// Move-only holder of N secret bytes, zeroed on construction, wiped on
// destruction and after a move. Bytes are reached only through withBytes(),
// bytes() or mutableBytes(); there is no formatter, so logging one is a
// compile error.
template <size_t N>
class Secret {
 public:
  static constexpr size_t SIZE = N;

  Secret() { bytes_.fill(0); }
  explicit Secret(std::span<const uint8_t, N> src) {
    std::copy(src.begin(), src.end(), bytes_.begin());
  }
  ~Secret() { wipe(); }
  Secret(const Secret&) = delete;
  Secret& operator=(const Secret&) = delete;
  Secret(Secret&& other) noexcept : bytes_(other.bytes_) { other.wipe(); }
  Secret& operator=(Secret&& other) noexcept {
    if (this != &other) {
      bytes_ = other.bytes_;
      other.wipe();
    }
    return *this;
  }

  // Calls fn(std::span<const uint8_t, N>) and returns what it returns.
  template <typename Fn>
  decltype(auto) withBytes(Fn&& fn) const {
    return fn(std::span<const uint8_t, N>(bytes_));
  }
  std::span<const uint8_t, N> bytes() const { return std::span<const uint8_t, N>(bytes_); }
  std::span<uint8_t, N> mutableBytes() { return std::span<uint8_t, N>(bytes_); }
  // An explicit copy, for the few places that must duplicate a key.
  Secret clone() const { return Secret(bytes()); }
  // Constant-time equality (CRYPTO_memcmp).
  bool equals(const Secret& other) const {
    return CRYPTO_memcmp(bytes_.data(), other.bytes_.data(), N) == 0;
  }
  void wipe() { OPENSSL_cleanse(bytes_.data(), N); }

 private:
  std::array<uint8_t, N> bytes_;
};

}  // namespace fips::crypto

// Logging a secret must not compile.
template <size_t N>
struct fmt::formatter<fips::crypto::Secret<N>> {
  formatter() = delete;
};
