// SPDX-License-Identifier: MIT
// BloomFilter: the v1 FIPS reachability filter, 8192 bits (1024 bytes), k
// hashes derived from SHA-256 of a 16-byte NodeAddr (FIPS spec 03 §4.1-§4.2).
// Runs in fips-router; filters built from FilterAnnounce bytes are untrusted
// but every operation on them is total.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "lib/identity/node-addr.h"

namespace fips::router::bloom {

using identity::NodeAddr;

// v1 filter size: 1024 bytes = 8192 bits (size_class 1).
constexpr size_t FILTER_BYTES = 1024;
constexpr size_t FILTER_BITS = FILTER_BYTES * 8;
// Hashes per element we use (and send as hash_count).
constexpr uint8_t DEFAULT_HASH_COUNT = 5;

// The k bit indices of addr: H = SHA-256(addr); h1, h2 = H[0..8], H[8..16]
// read LE; index_i = ((h1 + i·h2) mod 2^64) mod 8192 for i in 0..k-1.
std::array<size_t, DEFAULT_HASH_COUNT> bitIndices(const NodeAddr& addr);

// A fixed-size filter and the hash count used to query it. Bit i lives in
// byte i / 8 at bit position i % 8 (LSB first). A value type.
class BloomFilter {
 public:
  using Bytes = std::array<uint8_t, FILTER_BYTES>;

  // An empty filter with k = 5.
  BloomFilter() = default;
  // Wraps received bytes with the sender's hash count (> 0; the FilterAnnounce
  // decoder rejects 0).
  BloomFilter(const Bytes& bytes, uint8_t hashCount) : bits_(bytes), hashCount_(hashCount) {}

  // Sets the k bits of addr.
  void insert(const NodeAddr& addr);
  // True if all k bits of addr are set (false positives possible).
  bool contains(const NodeAddr& addr) const;
  // Bytewise OR of other into this filter.
  void merge(const BloomFilter& other);
  // Number of set bits.
  size_t countOnes() const;
  // Set bits / 8192.
  double fillRatio() const;
  // False-positive rate estimate used for policy: fillRatio()^k.
  double fpr() const;
  // Estimated elements n = -(m/k)·ln(1 - X/m); nullopt if saturated (every
  // bit set) or fpr() > maxFpr (pass +inf for no cap).
  std::optional<double> estimatedCount(double maxFpr) const;
  bool empty() const { return countOnes() == 0; }

  const Bytes& bytes() const { return bits_; }
  uint8_t hashCount() const { return hashCount_; }

  bool operator==(const BloomFilter&) const = default;

 private:
  Bytes bits_{};
  uint8_t hashCount_ = DEFAULT_HASH_COUNT;
};

}  // namespace fips::router::bloom
