// SPDX-License-Identifier: MIT
// The UDP worker's side of path MTU (RFC 8899 datagram PLPMTUD, done by the
// router): how the socket fragments, how probes go out unfragmented, and
// what the kernel knows of a peer's path MTU. Runs in fips-transport-udp.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <sys/socket.h>

#include "privsep/socket-address.h"

#include "lib/unique-fd.h"

namespace fips::transport {

// Data mode of the bound socket: fragmentation allowed. IPv4
// (IP_PMTUDISC_INTERFACE): DF clear and sized by the interface MTU alone,
// so a router with a smaller MTU fragments a datagram instead of dropping
// it into an ICMP black hole, UDP GSO runs stay whole, and unauthenticated
// ICMP "fragmentation needed" is ignored (the probes find the path MTU).
// IPv6 (IPV6_PMTUDISC_DONT): routers never fragment, so the kernel does,
// at the path MTU it learned from Packet Too Big. Throws
// std::runtime_error if the kernel refuses.
void allowFragmentation(int fd, int family);

// sendmsg() of one probe with DF set and the kernel's cached path MTU
// ignored (IP_PMTUDISC_PROBE), then back to the data mode. Returns
// sendmsg's result (errno set on failure: EMSGSIZE above the interface MTU).
ssize_t sendUnfragmented(int fd, int family, const msghdr& message);

// Largest UDP payload (bytes) the kernel would send to peer unfragmented:
// its path MTU for the peer's route (IP_MTU/IPV6_MTU of a socket connected
// to it, which includes PMTU learned from ICMP) minus the IP and UDP
// headers. nullopt if it cannot tell.
class KernelPathMtu {
 public:
  // Opens the query sockets (before the sandbox: it needs socket()).
  KernelPathMtu();
  std::optional<uint16_t> of(const privsep::SocketAddress& peer);

 private:
  UniqueFd v4_;
  UniqueFd v6_;
};

// At most one report per peer and second, unless the value changed.
class PathMtuReportLimiter {
 public:
  bool allow(const privsep::SocketAddress& peer, uint16_t mtu, uint64_t nowMs);

 private:
  struct Last {
    uint16_t mtu;
    uint64_t atMs;
  };
  std::map<std::string, Last> last_;  // peer bytes -> last report
};

}  // namespace fips::transport
