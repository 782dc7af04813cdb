// SPDX-License-Identifier: MIT
// The DNS responder's socket (see dns-socket.h).
#include "privsep/dns-socket.h"

#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <sys/socket.h>

#include <fmt/format.h>

#include "privsep/socket-address.h"

namespace fips::privsep {

std::string dnsEndpointText(const std::string& bindAddr, uint16_t port) {
  return bindAddr.find(':') != std::string::npos ? fmt::format("[{}]:{}", bindAddr, port)
                                                 : fmt::format("{}:{}", bindAddr, port);
}

UniqueFd bindDnsSocket(const std::string& bindAddr, uint16_t port, std::string& error) {
  auto addr = parseSocketAddress(dnsEndpointText(bindAddr, port));
  if (!addr) {
    error = "not an IP address";
    return {};
  }
  UniqueFd fd(::socket(addr->family(), SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd) {
    error = fmt::format("socket: {}", std::strerror(errno));
    return {};
  }
  if (addr->family() == AF_INET6) {
    int off = 0;
    int on = 1;
    if (::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off)) != 0 ||
        ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_RECVPKTINFO, &on, sizeof(on)) != 0) {
      error = fmt::format("setsockopt: {}", std::strerror(errno));
      return {};
    }
  }
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr->storage), addr->length) != 0) {
    error = fmt::format("bind: {}", std::strerror(errno));
    return {};
  }
  return fd;
}

UniqueFd bindDnsTcpSocket(const std::string& bindAddr, uint16_t port, std::string& error) {
  auto addr = parseSocketAddress(dnsEndpointText(bindAddr, port));
  if (!addr) {
    error = "not an IP address";
    return {};
  }
  UniqueFd fd(::socket(addr->family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd) {
    error = fmt::format("socket: {}", std::strerror(errno));
    return {};
  }
  int on = 1;
  if (::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) != 0) {
    error = fmt::format("setsockopt: {}", std::strerror(errno));
    return {};
  }
  if (addr->family() == AF_INET6) {
    int off = 0;
    if (::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off)) != 0) {
      error = fmt::format("setsockopt: {}", std::strerror(errno));
      return {};
    }
  }
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr->storage), addr->length) != 0) {
    error = fmt::format("bind: {}", std::strerror(errno));
    return {};
  }
  if (::listen(fd.get(), DNS_TCP_BACKLOG) != 0) {
    error = fmt::format("listen: {}", std::strerror(errno));
    return {};
  }
  return fd;
}

}  // namespace fips::privsep
