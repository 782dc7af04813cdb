// SPDX-License-Identifier: MIT
// Test helpers for simulator tests that carry IPv6 packets through MeshNode:
// a TUN that collects what the node writes, a node's fd00::/8 address, and
// a minimal IPv6/UDP packet. Test code only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/identity/fips-address.h"
#include "router/ipv6/ipv6-packet.h"
#include "router/mesh/tun-io.h"
#include "tests/sim/simulator.h"

namespace fips::sim {

// A TunIo that keeps every packet the node writes to its TUN.
struct CollectTun final : router::mesh::TunIo {
  void writeTun(std::span<const uint8_t> packet) override {
    packets.emplace_back(packet.begin(), packet.end());
  }
  std::vector<std::vector<uint8_t>> packets;
};

// The fd00::/8 address of a simulated node.
inline router::ipv6::Ipv6Addr fipsAddr(const SimNode& n) {
  return identity::FipsAddress::fromNodeAddr(n.nodeAddr).bytes();
}

// An IPv6/UDP packet src → dst, ports 12345 → 12345, with payloadLen bytes
// pattern, pattern+1, ... (checksum left 0: the mesh does not read it).
inline std::vector<uint8_t> udpPacket(const router::ipv6::Ipv6Addr& src,
                                      const router::ipv6::Ipv6Addr& dst, size_t payloadLen,
                                      uint8_t pattern) {
  const size_t l4 = 8 + payloadLen;
  std::vector<uint8_t> p(40 + l4, 0);
  p[0] = 0x60;
  p[4] = static_cast<uint8_t>(l4 >> 8);
  p[5] = static_cast<uint8_t>(l4 & 0xFF);
  p[6] = router::ipv6::IPPROTO_UDP_NUM;
  p[7] = 64;
  std::copy(src.begin(), src.end(), p.begin() + 8);
  std::copy(dst.begin(), dst.end(), p.begin() + 24);
  p[40] = 0x30;
  p[41] = 0x39;
  p[42] = 0x30;
  p[43] = 0x39;
  p[44] = static_cast<uint8_t>(l4 >> 8);
  p[45] = static_cast<uint8_t>(l4 & 0xFF);
  for (size_t i = 0; i < payloadLen; ++i) p[48 + i] = static_cast<uint8_t>(pattern + i);
  return p;
}

}  // namespace fips::sim
