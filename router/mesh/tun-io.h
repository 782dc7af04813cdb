// SPDX-License-Identifier: MIT
// TunIo: the IPv6 side of a mesh node core (FIPS spec 05), injected so the
// core stays sans-IO: fips-router writes to fips0, tests collect packets.
// MeshNode calls writeTun for packets delivered over sessions, hairpinned
// packets and the ICMPv6 errors it answers with. Calls happen inside
// MeshNode methods and must not call back into the node.
#pragma once

#include <cstdint>
#include <span>

namespace fips::router::mesh {

class TunIo {
 public:
  virtual ~TunIo() = default;
  // One whole IPv6 packet (header first) for the local host.
  virtual void writeTun(std::span<const uint8_t> packet) = 0;
};

}  // namespace fips::router::mesh
