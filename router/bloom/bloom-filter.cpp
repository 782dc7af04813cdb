// SPDX-License-Identifier: MIT
// The v1 FIPS bloom filter (FIPS spec 03 §4.1-§4.2, reference
// src/proto/bloom/core.rs). Runs in fips-router.
#include "router/bloom/bloom-filter.h"

#include <bit>
#include <cmath>
#include <cstring>

#include "lib/crypto/sha256.h"
#include "router/fmp/fmp-le.h"

namespace fips::router::bloom {

namespace {

struct BaseHashes {
  uint64_t h1;
  uint64_t h2;
};

BaseHashes baseHashes(const NodeAddr& addr) {
  const auto digest = crypto::sha256(std::span<const uint8_t>(addr.bytes()));
  return {fmp::loadLe64(digest, 0), fmp::loadLe64(digest, 8)};
}

size_t indexOf(const BaseHashes& h, uint64_t i) {
  return static_cast<size_t>((h.h1 + i * h.h2) % FILTER_BITS);  // u64 wraps
}

}  // namespace

std::array<size_t, DEFAULT_HASH_COUNT> bitIndices(const NodeAddr& addr) {
  const auto h = baseHashes(addr);
  std::array<size_t, DEFAULT_HASH_COUNT> out{};
  for (size_t i = 0; i < out.size(); ++i) out[i] = indexOf(h, i);
  return out;
}

void BloomFilter::insert(const NodeAddr& addr) {
  const auto h = baseHashes(addr);
  for (uint64_t i = 0; i < hashCount_; ++i) {
    const size_t idx = indexOf(h, i);
    bits_[idx / 8] = static_cast<uint8_t>(bits_[idx / 8] | (1U << (idx % 8)));
  }
}

bool BloomFilter::contains(const NodeAddr& addr) const {
  const auto h = baseHashes(addr);
  for (uint64_t i = 0; i < hashCount_; ++i) {
    const size_t idx = indexOf(h, i);
    if (((static_cast<unsigned>(bits_[idx / 8]) >> (idx % 8)) & 1U) == 0) return false;
  }
  return true;
}

// merge() and countOnes() work a 64-bit word at a time (byte order does not
// matter for OR and bit counts): a mesh merges and counts filters on every
// FilterAnnounce in and out.
static_assert(FILTER_BYTES % sizeof(uint64_t) == 0);

void BloomFilter::merge(const BloomFilter& other) {
  for (size_t i = 0; i < FILTER_BYTES; i += sizeof(uint64_t)) {
    uint64_t a = 0;
    uint64_t b = 0;
    std::memcpy(&a, bits_.data() + i, sizeof a);
    std::memcpy(&b, other.bits_.data() + i, sizeof b);
    a |= b;
    std::memcpy(bits_.data() + i, &a, sizeof a);
  }
}

size_t BloomFilter::countOnes() const {
  size_t n = 0;
  for (size_t i = 0; i < FILTER_BYTES; i += sizeof(uint64_t)) {
    uint64_t word = 0;
    std::memcpy(&word, bits_.data() + i, sizeof word);
    n += static_cast<size_t>(std::popcount(word));
  }
  return n;
}

double BloomFilter::fillRatio() const {
  return static_cast<double>(countOnes()) / static_cast<double>(FILTER_BITS);
}

double BloomFilter::fpr() const {
  return std::pow(fillRatio(), static_cast<double>(hashCount_));
}

std::optional<double> BloomFilter::estimatedCount(double maxFpr) const {
  const double m = static_cast<double>(FILTER_BITS);
  const double x = static_cast<double>(countOnes());
  if (x >= m || fpr() > maxFpr) return std::nullopt;
  return -(m / static_cast<double>(hashCount_)) * std::log(1.0 - x / m);
}

}  // namespace fips::router::bloom
