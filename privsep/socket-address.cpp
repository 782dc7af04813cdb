// SPDX-License-Identifier: MIT
// Socket address parsing and Endpoint conversion (see socket-address.h).
#include "privsep/socket-address.h"

#include <arpa/inet.h>
#include <charconv>
#include <cstring>
#include <net/if.h>
#include <string>

namespace fips::privsep {

namespace {

std::optional<uint16_t> parsePort(std::string_view text) {
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || value > 65535) {
    return std::nullopt;
  }
  return static_cast<uint16_t>(value);
}

}  // namespace

std::optional<SocketAddress> parseSocketAddress(std::string_view text) {
  SocketAddress out;
  if (!text.empty() && text.front() == '[') {
    auto close = text.find("]:");
    if (close == std::string_view::npos) return std::nullopt;
    std::string host(text.substr(1, close - 1));
    auto port = parsePort(text.substr(close + 2));
    if (!port) return std::nullopt;
    uint32_t scope = 0;
    if (auto pct = host.find('%'); pct != std::string::npos) {
      std::string zone = host.substr(pct + 1);
      host.resize(pct);
      scope = ::if_nametoindex(zone.c_str());
      if (scope == 0 && !zone.empty() &&
          zone.find_first_not_of("0123456789") == std::string::npos) {
        scope = static_cast<uint32_t>(std::stoul(zone));
      }
      if (scope == 0) return std::nullopt;
    }
    auto* sin6 = reinterpret_cast<sockaddr_in6*>(&out.storage);
    if (::inet_pton(AF_INET6, host.c_str(), &sin6->sin6_addr) != 1) return std::nullopt;
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = htons(*port);
    sin6->sin6_scope_id = scope;
    out.length = sizeof(sockaddr_in6);
    return out;
  }
  auto colon = text.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::string host(text.substr(0, colon));
  auto port = parsePort(text.substr(colon + 1));
  if (!port) return std::nullopt;
  auto* sin = reinterpret_cast<sockaddr_in*>(&out.storage);
  if (::inet_pton(AF_INET, host.c_str(), &sin->sin_addr) != 1) return std::nullopt;
  sin->sin_family = AF_INET;
  sin->sin_port = htons(*port);
  out.length = sizeof(sockaddr_in);
  return out;
}

void toEndpoint(const SocketAddress& address, schema::Endpoint::Builder out) {
  if (address.family() == AF_INET6) {
    const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(&address.storage);
    out.setIp(kj::arrayPtr(sin6->sin6_addr.s6_addr, 16));
    out.setPort(ntohs(sin6->sin6_port));
    out.setScopeId(sin6->sin6_scope_id);
  } else {
    const auto* sin = reinterpret_cast<const sockaddr_in*>(&address.storage);
    out.setIp(kj::arrayPtr(reinterpret_cast<const kj::byte*>(&sin->sin_addr), 4));
    out.setPort(ntohs(sin->sin_port));
  }
}

std::optional<SocketAddress> fromEndpoint(schema::Endpoint::Reader endpoint) {
  SocketAddress out;
  auto ip = endpoint.getIp();
  if (ip.size() == 16) {
    auto* sin6 = reinterpret_cast<sockaddr_in6*>(&out.storage);
    sin6->sin6_family = AF_INET6;
    std::memcpy(sin6->sin6_addr.s6_addr, ip.begin(), 16);
    sin6->sin6_port = htons(endpoint.getPort());
    sin6->sin6_scope_id = endpoint.getScopeId();
    out.length = sizeof(sockaddr_in6);
    return out;
  }
  if (ip.size() == 4) {
    auto* sin = reinterpret_cast<sockaddr_in*>(&out.storage);
    sin->sin_family = AF_INET;
    std::memcpy(&sin->sin_addr, ip.begin(), 4);
    sin->sin_port = htons(endpoint.getPort());
    out.length = sizeof(sockaddr_in);
    return out;
  }
  return std::nullopt;
}

}  // namespace fips::privsep
