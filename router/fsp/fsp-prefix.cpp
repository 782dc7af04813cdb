// SPDX-License-Identifier: MIT
// FSP common prefix and coordinate field codecs (FIPS spec 04 §1, §2). Runs
// in fips-router on untrusted input; every read is bounds-checked first.
#include "router/fsp/fsp-prefix.h"

#include <algorithm>
#include <utility>

#include "router/fmp/fmp-le.h"
#include "router/routing/coords-wire.h"

namespace fips::router::fsp {

using fmp::loadLe16;
using fmp::storeLe16;

FspResult<FspPrefix> decodeFspPrefix(std::span<const uint8_t> message) {
  if (message.size() < FSP_PREFIX_SIZE) return FspError::SHORT;
  const uint8_t version = message[0] >> 4U;
  const uint8_t phase = message[0] & 0x0FU;
  if (version != FSP_VERSION) return FspError::BAD_VERSION;
  if (phase > static_cast<uint8_t>(FspPhase::MSG3)) return FspError::BAD_PHASE;
  FspPrefix prefix;
  prefix.phase = static_cast<FspPhase>(phase);
  prefix.flags = message[1];
  prefix.payloadLen = loadLe16(message, 2);
  // FIPS spec 04 §1: the flags byte must be 0 for phases 1-3.
  if (prefix.phase != FspPhase::ESTABLISHED && prefix.flags != 0) return FspError::BAD_FLAGS;
  return prefix;
}

std::array<uint8_t, FSP_PREFIX_SIZE> encodeFspPrefix(const FspPrefix& prefix) {
  std::array<uint8_t, FSP_PREFIX_SIZE> out{};
  out[0] = static_cast<uint8_t>((FSP_VERSION << 4U) | static_cast<uint8_t>(prefix.phase));
  out[1] = prefix.flags;
  storeLe16(out, 2, prefix.payloadLen);
  return out;
}

size_t coordFieldSize(const Coordinates& coords) {
  return routing::coordsWireSize(coords);
}

size_t writeCoordField(std::span<uint8_t> out, const Coordinates& coords) {
  storeLe16(out, 0, static_cast<uint16_t>(coords.path().size()));
  size_t off = COORD_COUNT_SIZE;
  for (const auto& addr : coords.path()) {
    std::copy(addr.bytes().begin(), addr.bytes().end(), out.subspan(off).begin());
    off += COORD_ENTRY_SIZE;
  }
  return off;
}

FspResult<CoordField> decodeCoordField(std::span<const uint8_t> bytes, bool requireNonEmpty) {
  auto decoded = routing::decodeCoords(bytes, !requireNonEmpty);
  if (!decoded.ok()) {
    return decoded.error() == routing::CoordsWireError::ZERO_COUNT ? FspError::BAD_COUNT
                                                                   : FspError::SHORT;
  }
  return CoordField{std::move(decoded.value().coords), decoded->size};
}

}  // namespace fips::router::fsp
