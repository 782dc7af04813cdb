// SPDX-License-Identifier: MIT
// FilterAnnounce codec (FIPS spec 03 §4.3, reference src/proto/bloom/wire.rs).
// Runs in fips-router; bodies come from peers and are untrusted.
#include "router/bloom/filter-announce.h"

#include <algorithm>

#include "router/fmp/fmp-constants.h"
#include "router/fmp/fmp-le.h"

namespace fips::router::bloom {

namespace {

constexpr size_t HASH_COUNT_OFF = 8;
constexpr size_t SIZE_CLASS_OFF = 9;
constexpr size_t FILTER_OFF = fmp::FILTER_ANNOUNCE_FIXED_BODY;  // 10
static_assert(fmp::FILTER_BYTES_V1 == FILTER_BYTES);

}  // namespace

const char* toString(FilterAnnounceError error) {
  switch (error) {
    case FilterAnnounceError::SHORT:
      return "short";
    case FilterAnnounceError::BAD_SIZE_CLASS:
      return "bad_size_class";
    case FilterAnnounceError::SHORT_FILTER:
      return "short_filter";
    case FilterAnnounceError::LONG_FILTER:
      return "long_filter";
    case FilterAnnounceError::BAD_HASH_COUNT:
      return "bad_hash_count";
  }
  return "unknown";
}

std::variant<FilterAnnounce, FilterAnnounceError> decodeFilterAnnounce(
    std::span<const uint8_t> body) {
  if (body.size() < FILTER_OFF) return FilterAnnounceError::SHORT;
  const uint8_t hashCount = body[HASH_COUNT_OFF];
  if (body[SIZE_CLASS_OFF] != fmp::FILTER_SIZE_CLASS_V1) return FilterAnnounceError::BAD_SIZE_CLASS;
  const size_t filterLen = body.size() - FILTER_OFF;
  if (filterLen < FILTER_BYTES) return FilterAnnounceError::SHORT_FILTER;
  if (filterLen > FILTER_BYTES) return FilterAnnounceError::LONG_FILTER;
  if (hashCount == 0) return FilterAnnounceError::BAD_HASH_COUNT;
  BloomFilter::Bytes bytes{};
  std::copy_n(body.begin() + FILTER_OFF, FILTER_BYTES, bytes.begin());
  return FilterAnnounce{.sequence = fmp::loadLe64(body, 0),
                        .filter = BloomFilter(bytes, hashCount)};
}

std::vector<uint8_t> encodeFilterAnnounce(const FilterAnnounce& announce) {
  std::vector<uint8_t> out(FILTER_OFF + FILTER_BYTES);
  fmp::storeLe64(out, 0, announce.sequence);
  out[HASH_COUNT_OFF] = announce.filter.hashCount();
  out[SIZE_CLASS_OFF] = fmp::FILTER_SIZE_CLASS_V1;
  std::copy(announce.filter.bytes().begin(), announce.filter.bytes().end(),
            out.begin() + FILTER_OFF);
  return out;
}

}  // namespace fips::router::bloom
