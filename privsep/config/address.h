// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: shape checks for the address strings in
// fips.yaml (IP, ip:port, host:port, CIDR). Runs in the fips supervisor and
// fipsctl on operator-owned strings; pure functions, no name resolution.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace fips::privsep::config {

// An IPv4 or IPv6 literal, no brackets, no port.
bool isIpAddress(std::string_view text);

// "a.b.c.d:port" or "[v6]:port", as Rust's SocketAddr parses it.
bool isSocketAddress(std::string_view text);

// "[v6]:port" only; v6 may carry a zone: "%2" (a scope id, as the
// reference) or "%eth0" (an interface name).
bool isSocketAddressV6(std::string_view text);

// Somewhere to connect to: a socket address, or "hostname:port" with a host
// name as the resolver takes it (privsep/host-name.h); the port 1 to 65535.
// A host of digits and dots only is an IPv4 literal, never a host name: it
// must be a valid one ("10.77.0.300:2121" is refused).
bool isHostPort(std::string_view text);

// Why the host of "host:port" (or "[v6]:port") is a broken IP literal:
// "10.77.0.300 is not a valid IPv4 address" for digits and dots that are no
// dotted quad, "fe80::zz is not a valid IPv6 address" for a bracketed host
// that is no IPv6 address; nullopt otherwise.
std::optional<std::string> badIpLiteral(std::string_view hostPort);

// "[v6]:port" (zone allowed) whose address is in fd00::/8, the FIPS mesh's
// own addresses (spec 01 §3): never an underlay endpoint.
bool isMeshSocketAddress(std::string_view text);

// "v6/len" with len 0..128.
bool isIpv6Cidr(std::string_view text);

// The reference's loopback test for host:port text: 127.x, ::1 (bracketed or
// not), 0:0:0:0:0:0:0:1 and "localhost"; hostnames count as non-loopback.
bool isLoopbackAddress(std::string_view text);

}  // namespace fips::privsep::config
