// SPDX-License-Identifier: MIT
// Socket options for data and probes, and the kernel's path MTU per peer
// (see path-mtu.h). Runs in fips-transport-udp.
#include "transports/udp/path-mtu.h"

#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <stdexcept>

namespace fips::transport {

namespace {

constexpr int UDP_HEADER = 8;
constexpr int IPV4_HEADER = 20;
constexpr int IPV6_HEADER = 40;
constexpr size_t MAX_REMEMBERED_PEERS = 1024;

void setOption(int fd, int level, int name, int value) {
  if (::setsockopt(fd, level, name, &value, sizeof(value)) != 0) {
    throw std::runtime_error(std::string("setsockopt(path MTU discovery): ") +
                             std::strerror(errno));
  }
}

bool isV4Mapped(const privsep::SocketAddress& peer) {
  if (peer.family() != AF_INET6) return false;
  const auto* a = reinterpret_cast<const sockaddr_in6*>(&peer.storage);
  return IN6_IS_ADDR_V4MAPPED(&a->sin6_addr);
}

std::optional<uint16_t> queryMtu(int fd, const privsep::SocketAddress& peer, int level, int name,
                                 int headers) {
  if (fd < 0) return std::nullopt;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&peer.storage), peer.length) != 0) {
    return std::nullopt;
  }
  int mtu = 0;
  socklen_t len = sizeof(mtu);
  if (::getsockopt(fd, level, name, &mtu, &len) != 0 || mtu <= headers) return std::nullopt;
  return static_cast<uint16_t>(std::min(mtu - headers, 0xFFFF));
}

}  // namespace

void allowFragmentation(int fd, int family) {
  setOption(fd, IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_INTERFACE);
  if (family == AF_INET6) setOption(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, IPV6_PMTUDISC_DONT);
}

ssize_t sendUnfragmented(int fd, int family, const msghdr& message) {
  const int v6 = family == AF_INET6;
  int probe = IP_PMTUDISC_PROBE;
  ::setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &probe, sizeof(probe));
  if (v6) {
    int probe6 = IPV6_PMTUDISC_PROBE;
    ::setsockopt(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &probe6, sizeof(probe6));
  }
  const ssize_t sent = ::sendmsg(fd, &message, MSG_DONTWAIT);
  const int saved = errno;
  allowFragmentation(fd, family);
  errno = saved;
  return sent;
}

KernelPathMtu::KernelPathMtu()
    : v4_(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)),
      v6_(::socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0)) {}

std::optional<uint16_t> KernelPathMtu::of(const privsep::SocketAddress& peer) {
  if (peer.family() == AF_INET) {
    return queryMtu(v4_.get(), peer, IPPROTO_IP, IP_MTU, IPV4_HEADER + UDP_HEADER);
  }
  if (peer.family() != AF_INET6) return std::nullopt;
  const int headers = (isV4Mapped(peer) ? IPV4_HEADER : IPV6_HEADER) + UDP_HEADER;
  return queryMtu(v6_.get(), peer, IPPROTO_IPV6, IPV6_MTU, headers);
}

bool PathMtuReportLimiter::allow(const privsep::SocketAddress& peer, uint16_t mtu, uint64_t nowMs) {
  std::string key(reinterpret_cast<const char*>(&peer.storage), peer.length);
  auto it = last_.find(key);
  if (it != last_.end() && it->second.mtu == mtu && nowMs - it->second.atMs < 1000) return false;
  if (it == last_.end() && last_.size() >= MAX_REMEMBERED_PEERS) last_.clear();
  last_[key] = Last{mtu, nowMs};
  return true;
}

}  // namespace fips::transport
