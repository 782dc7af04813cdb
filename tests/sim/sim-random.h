// SPDX-License-Identifier: MIT
// Seeded randomness for the mesh simulator: one std::mt19937_64 per use,
// seeded explicitly (never std::random_device), with integer and real draws
// whose results do not depend on the standard library's distributions.
// Test code only.
#pragma once

#include <cstdint>
#include <random>
#include <span>

#include "lib/crypto/rng.h"

namespace fips::sim {

class SimRandom {
 public:
  explicit SimRandom(uint64_t seed) : gen_(seed) {}
  uint64_t next() { return gen_(); }
  // Uniform in [0, n); 0 if n is 0.
  uint64_t below(uint64_t n) { return n == 0 ? 0 : gen_() % n; }
  // Uniform in [0, 1).
  double real() { return static_cast<double>(gen_() >> 11U) * 0x1.0p-53; }
  bool chance(double p) { return p > 0 && real() < p; }

 private:
  std::mt19937_64 gen_;
};

// The crypto::Rng a simulated node uses for keys, ephemerals, indices and
// jitter: deterministic from its seed.
class SimCryptoRng final : public crypto::Rng {
 public:
  explicit SimCryptoRng(uint64_t seed) : gen_(seed) {}
  [[nodiscard]] bool fill(std::span<uint8_t> out) override {
    for (uint8_t& b : out) b = static_cast<uint8_t>(gen_() & 0xFFU);
    return true;
  }

 private:
  std::mt19937_64 gen_;
};

}  // namespace fips::sim
