// SPDX-License-Identifier: MIT
// TransportAddr: where a datagram came from or goes to (transport id, IP,
// port, scope). A value type used by the FMP link engine in fips-router; the
// addresses come from transport workers and the network, so they are data,
// never trusted to name a peer (only an authenticated frame binds one).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace fips::router::link {

// One transport endpoint. ip holds ipLen bytes (4 for IPv4, 16 for IPv6,
// network byte order); the rest stays zero so == and hash see canonical bytes.
struct TransportAddr {
  uint32_t transportId = 0;
  std::array<uint8_t, 16> ip{};
  uint8_t ipLen = 0;
  uint16_t port = 0;  // host byte order
  uint32_t scopeId = 0;

  // nullopt unless ipBytes is 4 or 16 bytes long.
  static std::optional<TransportAddr> make(uint32_t transportId, std::span<const uint8_t> ipBytes,
                                           uint16_t port, uint32_t scopeId = 0);
  bool isIpv6() const { return ipLen == 16; }
  // True for fd00::/8, the FIPS mesh's own address space (spec 01 §3.2).
  bool isFipsMeshAddress() const { return isIpv6() && ip[0] == 0xFD; }

  bool operator==(const TransportAddr&) const = default;
};

// "192.0.2.1:2121" or "[2001:db8::1]:2121" (the transport id is not shown).
std::string toText(const TransportAddr& addr);

// Hash for unordered containers.
struct TransportAddrHash {
  size_t operator()(const TransportAddr& addr) const;
};

}  // namespace fips::router::link
