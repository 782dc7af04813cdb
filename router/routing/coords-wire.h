// SPDX-License-Identifier: MIT
// Address-only coordinates on the wire: u16 LE count ‖ count × NodeAddr(16),
// self first, root last (FIPS spec 00 "coordinate arrays", spec 03 §5, spec
// 04 §6). Used by the lookup messages, PathBroken and the FSP coordinate
// fields. Runs in fips-router; decoded bytes come from peers (untrusted).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/result.h"
#include "router/stp/coordinates.h"

namespace fips::router::routing {

constexpr size_t COORDS_COUNT_SIZE = 2;
constexpr size_t COORD_ENTRY_SIZE = 16;

// Why a coordinate field did not decode.
enum class CoordsWireError : uint8_t {
  SHORT,       // fewer than the 2 count bytes
  TRUNCATED,   // fewer than 2 + 16·count bytes
  ZERO_COUNT,  // count 0 where at least one entry is required
};

// A decoded field and how many bytes it took (2 + 16·count).
struct DecodedCoords {
  stp::Coordinates coords;  // empty only when allowEmpty and count was 0
  size_t size = 0;
};

// Decodes the field at the start of bytes; bytes after it are not looked at.
// allowEmpty: a count of 0 decodes to empty coordinates (PathBroken's
// last_known_coords) instead of ZERO_COUNT (src/proto/coord.rs).
Result<DecodedCoords, CoordsWireError> decodeCoords(std::span<const uint8_t> bytes,
                                                    bool allowEmpty);

// Appends count ‖ entries to out. Coordinates longer than 65535 entries are a
// programming bug (a tree path never is); they are truncated to 65535.
void encodeCoords(const stp::Coordinates& coords, std::vector<uint8_t>& out);

// 2 + 16·count bytes.
inline size_t coordsWireSize(const stp::Coordinates& coords) {
  return COORDS_COUNT_SIZE + COORD_ENTRY_SIZE * coords.path().size();
}

}  // namespace fips::router::routing
