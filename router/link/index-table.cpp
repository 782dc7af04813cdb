// SPDX-License-Identifier: MIT
// Session index allocator and dispatch table (see index-table.h). Runs in
// fips-router.
#include "router/link/index-table.h"

#include <array>

namespace fips::router::link {

namespace {
constexpr int MAX_ALLOCATION_DRAWS = 100;
}  // namespace

std::optional<uint32_t> IndexTable::allocate(crypto::Rng& rng) {
  for (int i = 0; i < MAX_ALLOCATION_DRAWS; ++i) {
    std::array<uint8_t, 4> bytes{};
    if (!rng.fill(bytes)) return std::nullopt;
    const uint32_t index = uint32_t{bytes[0]} | (uint32_t{bytes[1]} << 8U) |
                           (uint32_t{bytes[2]} << 16U) | (uint32_t{bytes[3]} << 24U);
    if (allocated_.insert(index).second) return index;
  }
  return std::nullopt;
}

void IndexTable::bind(uint32_t transportId, uint32_t index, IndexEntry entry) {
  bound_.insert_or_assign(key(transportId, index), entry);
}

void IndexTable::release(uint32_t transportId, uint32_t index) {
  bound_.erase(key(transportId, index));
  allocated_.erase(index);
}

const IndexEntry* IndexTable::find(uint32_t transportId, uint32_t index) const {
  const auto it = bound_.find(key(transportId, index));
  return it == bound_.end() ? nullptr : &it->second;
}

}  // namespace fips::router::link
