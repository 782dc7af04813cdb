// SPDX-License-Identifier: MIT
// The UDP socket of the `.fips` DNS responder (spec 05 §4), and its TCP
// listener on the same address and port (RFC 7766): bound by
// fips-router itself for an unprivileged dns.port, or by fips-tun-helper
// (as root, before it drops) for a port below 1024 and handed to the router
// in tun.capnp. Inputs are the validated config's dns.bind_addr and port.
#pragma once

#include <cstdint>
#include <string>

#include "lib/unique-fd.h"

namespace fips::privsep {

// "addr:port", with the address in brackets when it is IPv6.
std::string dnsEndpointText(const std::string& bindAddr, uint16_t port);

// A non-blocking UDP socket bound to bindAddr:port; IPv6 ones dual-stack
// (IPV6_V6ONLY off) with IPV6_RECVPKTINFO on, as the reference binds it. On
// failure returns an empty fd and sets error ("bind: Permission denied").
UniqueFd bindDnsSocket(const std::string& bindAddr, uint16_t port, std::string& error);

// Connections a DNS TCP listener queues before the responder accepts them.
inline constexpr int DNS_TCP_BACKLOG = 16;

// A non-blocking TCP socket bound to bindAddr:port (IPv6 ones dual-stack,
// SO_REUSEADDR on, so a restart does not wait out TIME_WAIT) and listening.
// On failure returns an empty fd and sets error ("bind: Address in use").
UniqueFd bindDnsTcpSocket(const std::string& bindAddr, uint16_t port, std::string& error);

}  // namespace fips::privsep
