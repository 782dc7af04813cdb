// SPDX-License-Identifier: MIT
// TransportAddr construction and hashing (see transport-addr.h). Runs in
// fips-router; inputs are plain values.
#include "router/link/transport-addr.h"

#include <algorithm>
#include <arpa/inet.h>
#include <sys/socket.h>

namespace fips::router::link {

std::optional<TransportAddr> TransportAddr::make(uint32_t transportId,
                                                 std::span<const uint8_t> ipBytes, uint16_t port,
                                                 uint32_t scopeId) {
  if (ipBytes.size() != 4 && ipBytes.size() != 16) return std::nullopt;
  TransportAddr addr;
  addr.transportId = transportId;
  std::copy(ipBytes.begin(), ipBytes.end(), addr.ip.begin());
  addr.ipLen = static_cast<uint8_t>(ipBytes.size());
  addr.port = port;
  addr.scopeId = scopeId;
  return addr;
}

std::string toText(const TransportAddr& addr) {
  char text[INET6_ADDRSTRLEN] = "?";
  ::inet_ntop(addr.isIpv6() ? AF_INET6 : AF_INET, addr.ip.data(), text, sizeof(text));
  const std::string port = std::to_string(addr.port);
  return addr.isIpv6() ? "[" + std::string(text) + "]:" + port : std::string(text) + ":" + port;
}

size_t TransportAddrHash::operator()(const TransportAddr& addr) const {
  // FNV-1a over the canonical fields.
  uint64_t h = 14695981039346656037ULL;
  auto mix = [&h](uint64_t byte) {
    h ^= byte;
    h *= 1099511628211ULL;
  };
  for (uint8_t b : addr.ip) mix(b);
  mix(addr.ipLen);
  mix(addr.port);
  mix(addr.port >> 8U);
  mix(addr.transportId);
  mix(addr.scopeId);
  return static_cast<size_t>(h);
}

}  // namespace fips::router::link
