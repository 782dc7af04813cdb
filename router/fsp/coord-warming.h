// SPDX-License-Identifier: MIT
// Coordinate cache warming from the cleartext coordinates FSP carries (FIPS
// spec 03 §7, 04 §2-§4): every node a SessionDatagram passes (transit or
// destination) caches the coordinates of SessionSetup, SessionAck and
// CP-flagged encrypted messages under the datagram's addresses, without
// decrypting anything; never under this node's own address (the reference
// caches it there at the destination, but nothing reads it, and a sender
// that does not know our coordinates puts its own in dest_coords). Runs in fips-router on untrusted
// datagrams; malformed messages are ignored and never block forwarding.
#pragma once

#include <cstdint>
#include <span>

#include "lib/identity/node-addr.h"
#include "router/routing/coord-cache.h"

namespace fips::router::fsp {

// What warmCoordCache found in the message.
enum class WarmResult : uint8_t {
  CACHED,     // at least one coordinate field was cached
  NOTHING,    // a message without coordinates (Msg3, no CP, signal)
  MALFORMED,  // a Setup/Ack/CP message that did not decode (count it)
};

// Setup and Ack: src_coords under srcAddr, dest_coords under destAddr.
// Encrypted with CP: non-empty src/dest coordinates under srcAddr/destAddr.
// srcAddr/destAddr are the SessionDatagram's; fsp is its payload. Nothing
// is cached under localAddr (this node).
WarmResult warmCoordCache(routing::CoordCache& cache, const identity::NodeAddr& localAddr,
                          const identity::NodeAddr& srcAddr, const identity::NodeAddr& destAddr,
                          std::span<const uint8_t> fsp, uint64_t nowMs);

}  // namespace fips::router::fsp
