// SPDX-License-Identifier: MIT
// The 4-byte FSP common prefix every FSP message starts with (FIPS spec 04
// §1) and the coordinate field shared by the handshake and encrypted
// messages (spec 04 §2). Runs in fips-router; messages arrive inside
// SessionDatagrams from remote nodes and are untrusted.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "router/fsp/fsp-constants.h"
#include "router/fsp/fsp-error.h"
#include "router/stp/coordinates.h"

namespace fips::router::fsp {

using stp::Coordinates;

// ver_phase ‖ flags ‖ payload_len (u16 LE). payload_len is the body length
// after the prefix for phases 1-3 and for U = 1 signals, and the inner
// plaintext length (no counter, coordinates or tag) for encrypted messages.
struct FspPrefix {
  FspPhase phase = FspPhase::ESTABLISHED;
  uint8_t flags = 0;
  uint16_t payloadLen = 0;

  bool unencrypted() const { return (flags & FLAG_U) != 0; }
  bool coordsPresent() const { return (flags & FLAG_CP) != 0; }
  bool keyEpoch() const { return (flags & FLAG_K) != 0; }
};

// Decodes the first 4 bytes of message (more may follow). SHORT, BAD_VERSION
// (version nibble != 0), BAD_PHASE (phase > 3), BAD_FLAGS (phases 1-3 with a
// non-zero flags byte).
FspResult<FspPrefix> decodeFspPrefix(std::span<const uint8_t> message);

// The 4 prefix bytes.
std::array<uint8_t, FSP_PREFIX_SIZE> encodeFspPrefix(const FspPrefix& prefix);

// The coordinate field, u16 LE count ‖ count × NodeAddr (self → root), is
// router/routing/coords-wire.h's; these wrap it with FSP error codes and a
// writer for pre-sized buffers.
// Wire size of a coordinate field: 2 + 16 × entries (an empty value is count 0).
size_t coordFieldSize(const Coordinates& coords);

// Writes u16 LE count ‖ count × NodeAddr (self → root) at the start of out,
// which has at least coordFieldSize(coords) bytes; returns the bytes written.
size_t writeCoordField(std::span<uint8_t> out, const Coordinates& coords);

// A decoded coordinate field and the bytes it took.
struct CoordField {
  Coordinates coords;  // empty when the count was 0 (only if allowed)
  size_t consumed = 0;
};

// Decodes a coordinate field at the start of bytes. SHORT if the count or the
// entries do not fit; BAD_COUNT if the count is 0 and requireNonEmpty.
FspResult<CoordField> decodeCoordField(std::span<const uint8_t> bytes, bool requireNonEmpty);

}  // namespace fips::router::fsp
