// SPDX-License-Identifier: MIT
// FilterAnnounce (link message 0x20): a node's bloom filter for one peer
// (FIPS spec 03 §4.3). Runs in fips-router; bodies come from peers and are
// untrusted: decoding never throws and returns a typed error.
#pragma once

#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "router/bloom/bloom-filter.h"

namespace fips::router::bloom {

// A decoded FilterAnnounce. filter.hashCount() is the sender's hash_count.
struct FilterAnnounce {
  uint64_t sequence = 0;
  BloomFilter filter;

  bool operator==(const FilterAnnounce&) const = default;
};

// Why a FilterAnnounce body failed to decode (reference src/proto/bloom/wire.rs order).
enum class FilterAnnounceError : uint8_t {
  SHORT,           // fewer than the 10 header bytes
  BAD_SIZE_CLASS,  // size_class other than 1 (> 3 is malformed, 0/2/3 are not v1)
  SHORT_FILTER,    // fewer than 512 << size_class = 1024 filter bytes
  LONG_FILTER,     // more than 1024 filter bytes (the length is exact)
  BAD_HASH_COUNT,  // hash_count 0
};

// Stable lower-case name ("bad_size_class"), for logs and stats.
const char* toString(FilterAnnounceError error);

// Decodes the body after the 0x20 type byte: seq u64 LE ‖ hash_count ‖
// size_class ‖ exactly 1024 filter bytes.
std::variant<FilterAnnounce, FilterAnnounceError> decodeFilterAnnounce(
    std::span<const uint8_t> body);

// The 1034-byte body (without the 0x20 type byte), size_class 1 and
// hash_count = announce.filter.hashCount().
std::vector<uint8_t> encodeFilterAnnounce(const FilterAnnounce& announce);

}  // namespace fips::router::bloom
