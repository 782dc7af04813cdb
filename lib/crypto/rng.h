// SPDX-License-Identifier: MIT
// Injected randomness for the sans-IO crypto core: an Rng interface, the
// OpenSSL-backed source used by fips-router, and a scripted source for tests
// and vector replay. Runs in fips-router; takes no external input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace fips::crypto {

// A source of random bytes. fill() returns false if the source failed (the
// caller then fails its operation; it never proceeds with unfilled bytes).
class Rng {
 public:
  virtual ~Rng() = default;
  [[nodiscard]] virtual bool fill(std::span<uint8_t> out) = 0;
};

// Cryptographic randomness from OpenSSL RAND_bytes (DRBG seeded by the OS).
class OpenSslRng final : public Rng {
 public:
  [[nodiscard]] bool fill(std::span<uint8_t> out) override;
};

// Replays a fixed byte script, front to back (e.g. the ephemeral secrets of a
// test vector). fill() fails once the script is exhausted. Not for production.
class ScriptedRng final : public Rng {
 public:
  ScriptedRng() = default;
  explicit ScriptedRng(std::vector<uint8_t> script) : script_(std::move(script)) {}
  ~ScriptedRng() override;
  ScriptedRng(const ScriptedRng&) = delete;
  ScriptedRng& operator=(const ScriptedRng&) = delete;

  // Appends bytes to the end of the script.
  void push(std::span<const uint8_t> bytes);
  [[nodiscard]] bool fill(std::span<uint8_t> out) override;
  size_t remaining() const { return script_.size() - pos_; }

 private:
  std::vector<uint8_t> script_;
  size_t pos_ = 0;
};

// Uniform integer in [lo, hi] (inclusive) drawn from rng by rejection sampling;
// returns false if the rng failed.
[[nodiscard]] bool uniformInt(Rng& rng, int64_t lo, int64_t hi, int64_t& out);

}  // namespace fips::crypto
