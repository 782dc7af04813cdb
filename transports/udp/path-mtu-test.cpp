// SPDX-License-Identifier: MIT
// Unit tests of the UDP worker's path MTU helpers on real loopback sockets:
// the data and probe socket modes, the kernel path MTU query and the report
// limiter. Test code only.
#include "transports/udp/path-mtu.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <doctest/doctest.h>

namespace fips::transport {
namespace {

privsep::SocketAddress loopback(uint16_t port) {
  privsep::SocketAddress a;
  auto* in = reinterpret_cast<sockaddr_in*>(&a.storage);
  in->sin_family = AF_INET;
  in->sin_port = htons(port);
  in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.length = sizeof(sockaddr_in);
  return a;
}

int discoverMode(int fd) {
  int mode = -1;
  socklen_t len = sizeof(mode);
  ::getsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &mode, &len);
  return mode;
}

TEST_CASE("path mtu: data mode allows fragmentation; a probe leaves it as it was") {
  UniqueFd fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  REQUIRE(fd.get() >= 0);
  allowFragmentation(fd.get(), AF_INET);
  CHECK(discoverMode(fd.get()) == IP_PMTUDISC_INTERFACE);
  privsep::SocketAddress to = loopback(9);
  char payload[1200] = {};
  iovec iov{payload, sizeof(payload)};
  msghdr m{};
  m.msg_name = &to.storage;
  m.msg_namelen = to.length;
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  CHECK(sendUnfragmented(fd.get(), AF_INET, m) == static_cast<ssize_t>(sizeof(payload)));
  CHECK(discoverMode(fd.get()) == IP_PMTUDISC_INTERFACE);
}

TEST_CASE("path mtu: the kernel's path MTU to a loopback peer is lo's MTU less 28 bytes") {
  KernelPathMtu kernel;
  const auto mtu = kernel.of(loopback(9));
  REQUIRE(mtu);
  CHECK(*mtu >= 1252);  // lo: 65536 by default, capped at 65535
}

TEST_CASE("path mtu: reports per peer at most once a second unless the value changes") {
  PathMtuReportLimiter limiter;
  const auto a = loopback(2121);
  const auto b = loopback(2122);
  CHECK(limiter.allow(a, 1252, 0));
  CHECK_FALSE(limiter.allow(a, 1252, 500));
  CHECK(limiter.allow(b, 1252, 500));
  CHECK(limiter.allow(a, 1240, 600));
  CHECK_FALSE(limiter.allow(a, 1240, 1599));
  CHECK(limiter.allow(a, 1240, 1600));
}

}  // namespace
}  // namespace fips::transport
