// SPDX-License-Identifier: MIT
// The routing error signals a transit node sends back to a datagram's source
// when it cannot forward it: CoordsRequired (0x20), PathBroken (0x21) and
// MtuExceeded (0x22), plaintext FSP messages (phase 0x0, U flag) carried in a
// SessionDatagram (FIPS spec 04 §6; src/proto/routing/wire.rs). Runs in
// fips-router; decoded signals come from the network, are unauthenticated and
// untrusted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "lib/result.h"
#include "router/stp/coordinates.h"

namespace fips::router::routing {

using identity::NodeAddr;

// The FSP common prefix of a signal: ver/phase 0x00, flags U (0x04), u16 LE
// payload_len = bytes after the prefix (spec 04 §1, §6).
constexpr size_t FSP_PREFIX_SIZE = 4;
constexpr uint8_t FSP_FLAG_UNENCRYPTED = 0x04;

// Message type, the first byte after the FSP prefix.
enum class RoutingSignalType : uint8_t {
  COORDS_REQUIRED = 0x20,
  PATH_BROKEN = 0x21,
  MTU_EXCEEDED = 0x22,
};

// Sizes of the signal after the FSP prefix, including the type byte.
constexpr size_t COORDS_REQUIRED_SIZE = 34;  // type ‖ flags ‖ dest ‖ reporter
constexpr size_t PATH_BROKEN_MIN_SIZE = 36;  // ... ‖ count(2), then 16·count
constexpr size_t MTU_EXCEEDED_SIZE = 36;     // ... ‖ mtu u16 LE

// Why decodeRoutingSignal dropped its input.
enum class SignalError : uint8_t {
  EMPTY,             // no type byte
  UNKNOWN_TYPE,      // type not 0x20-0x22
  SHORT,             // body after the type byte < 33 (CoordsRequired) / 35 (others)
  TRUNCATED_COORDS,  // PathBroken count needs more bytes than follow
};

// Number of SignalError values, for per-reason counters.
constexpr size_t SIGNAL_ERROR_COUNT = 4;

// Name for logs and stats ("truncated_coords").
const char* toString(SignalError error);

// No cached coordinates for dest_addr at the reporter.
struct CoordsRequired {
  NodeAddr destAddr;
  NodeAddr reporter;
  bool operator==(const CoordsRequired&) const = default;
};

// The reporter had coordinates for dest_addr but no next hop; they are
// echoed as lastKnownCoords (empty when the wire count is 0).
struct PathBroken {
  NodeAddr destAddr;
  NodeAddr reporter;
  stp::Coordinates lastKnownCoords;
  bool operator==(const PathBroken&) const = default;
};

// A forwarded datagram for dest_addr did not fit the reporter's next-hop
// link; mtu is that link's MTU in bytes.
struct MtuExceeded {
  NodeAddr destAddr;
  NodeAddr reporter;
  uint16_t mtu = 0;
  bool operator==(const MtuExceeded&) const = default;
};

using RoutingSignal = std::variant<CoordsRequired, PathBroken, MtuExceeded>;

// The dest_addr field of any signal (the source matches it to its session).
const NodeAddr& signalDestAddr(const RoutingSignal& signal);

// Decodes the bytes after the 4-byte FSP prefix: type ‖ flags (ignored) ‖
// fields. Trailing bytes are ignored, as in the reference.
Result<RoutingSignal, SignalError> decodeRoutingSignal(std::span<const uint8_t> afterPrefix);

// The whole FSP message: 0x00 ‖ 0x04 ‖ payload_len u16 LE ‖ type ‖ 0x00 ‖
// fields. PathBroken with empty lastKnownCoords is sent with count 0.
std::vector<uint8_t> encodeRoutingSignal(const RoutingSignal& signal);

}  // namespace fips::router::routing
