// SPDX-License-Identifier: MIT
// Coordinate cache warming from FSP headers (FIPS spec 03 §7). Runs in
// fips-router on untrusted datagrams, through the bounds-checked FSP decoders.
#include "router/fsp/coord-warming.h"

#include "router/fsp/encrypted-message.h"
#include "router/fsp/handshake-messages.h"

namespace fips::router::fsp {

WarmResult warmCoordCache(routing::CoordCache& cache, const identity::NodeAddr& localAddr,
                          const identity::NodeAddr& srcAddr, const identity::NodeAddr& destAddr,
                          std::span<const uint8_t> fsp, uint64_t nowMs) {
  // Never under our own address (see the header).
  const auto cachePair = [&](const Coordinates& src, const Coordinates& dest) {
    if (!src.empty() && srcAddr != localAddr) cache.insert(srcAddr, src, nowMs);
    if (!dest.empty() && destAddr != localAddr) cache.insert(destAddr, dest, nowMs);
  };
  const auto prefix = decodeFspPrefix(fsp);
  if (!prefix.ok()) return WarmResult::MALFORMED;
  switch (prefix->phase) {
    case FspPhase::SETUP: {
      const auto m = decodeSessionSetup(fsp);
      if (!m.ok()) return WarmResult::MALFORMED;
      cachePair(m->srcCoords, m->destCoords);
      return WarmResult::CACHED;
    }
    case FspPhase::ACK: {
      const auto m = decodeSessionAck(fsp);
      if (!m.ok()) return WarmResult::MALFORMED;
      cachePair(m->srcCoords, m->destCoords);
      return WarmResult::CACHED;
    }
    case FspPhase::MSG3:
      return WarmResult::NOTHING;
    case FspPhase::ESTABLISHED:
      break;
  }
  if (prefix->unencrypted() || !prefix->coordsPresent()) return WarmResult::NOTHING;
  const auto m = decodeEncryptedMessage(fsp);
  if (!m.ok()) return WarmResult::MALFORMED;
  if (m->srcCoords.empty() && m->destCoords.empty()) return WarmResult::NOTHING;
  cachePair(m->srcCoords, m->destCoords);
  return WarmResult::CACHED;
}

}  // namespace fips::router::fsp
