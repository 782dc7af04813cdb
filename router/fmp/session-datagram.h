// SPDX-License-Identifier: MIT
// SessionDatagram (link msg 0x00), the routed envelope that carries one FSP
// message across the mesh: ttl ‖ path_mtu ‖ src ‖ dest ‖ payload (FIPS spec 02
// §7). Runs in fips-router; datagrams come from peers and are untrusted. The
// FSP payload is opaque here.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "router/fmp/fmp-constants.h"
#include "router/fmp/fmp-error.h"

namespace fips::router::fmp {

using NodeAddrBytes = std::array<uint8_t, NODE_ADDR_SIZE>;

// Fields after the 0x00 type byte: ttl u8, path_mtu u16 LE, src_addr (16),
// dest_addr (16), then the FSP message (any length, may be empty).
struct SessionDatagram {
  uint8_t ttl = 0;
  uint16_t pathMtu = 0;
  NodeAddrBytes srcAddr{};
  NodeAddrBytes destAddr{};
  std::span<const uint8_t> payload;  // borrowed from the decoded body
};

// Decodes the body (the bytes after msg_type). SHORT if fewer than 35 bytes.
FmpResult<SessionDatagram> decodeSessionDatagram(std::span<const uint8_t> body);

// The whole message: 0x00 ‖ ttl ‖ path_mtu ‖ src ‖ dest ‖ payload (36 + payload bytes).
std::vector<uint8_t> encodeSessionDatagram(const SessionDatagram& datagram);

}  // namespace fips::router::fmp
