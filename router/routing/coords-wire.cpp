// SPDX-License-Identifier: MIT
// Address-only coordinate codec (spec 00, spec 03 §5). Runs in fips-router;
// input is untrusted peer bytes.
#include "router/routing/coords-wire.h"

#include <algorithm>
#include <limits>

#include "router/fmp/fmp-le.h"

namespace fips::router::routing {

Result<DecodedCoords, CoordsWireError> decodeCoords(std::span<const uint8_t> bytes,
                                                    bool allowEmpty) {
  if (bytes.size() < COORDS_COUNT_SIZE) return CoordsWireError::SHORT;
  const size_t count = fmp::loadLe16(bytes, 0);
  const size_t size = COORDS_COUNT_SIZE + count * COORD_ENTRY_SIZE;
  if (bytes.size() < size) return CoordsWireError::TRUNCATED;
  if (count == 0 && !allowEmpty) return CoordsWireError::ZERO_COUNT;
  std::vector<stp::NodeAddr> path;
  path.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    std::array<uint8_t, stp::NodeAddr::SIZE> addr{};
    const auto entry = bytes.subspan(COORDS_COUNT_SIZE + i * COORD_ENTRY_SIZE, COORD_ENTRY_SIZE);
    std::copy(entry.begin(), entry.end(), addr.begin());
    path.emplace_back(addr);
  }
  return DecodedCoords{.coords = stp::Coordinates(std::move(path)), .size = size};
}

void encodeCoords(const stp::Coordinates& coords, std::vector<uint8_t>& out) {
  const size_t count = std::min<size_t>(coords.path().size(), std::numeric_limits<uint16_t>::max());
  out.push_back(static_cast<uint8_t>(count & 0xFFU));
  out.push_back(static_cast<uint8_t>(count >> 8U));
  for (size_t i = 0; i < count; ++i) {
    const auto& bytes = coords.path()[i].bytes();
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
}

}  // namespace fips::router::routing
