// SPDX-License-Identifier: MIT
// Peer host names: the "name:port" form of a static peer's address, and the
// limits of a resolve request on the router <-> transport channel
// (privsep/schema/transport.capnp). Used in fips-router (config slice,
// validated by the supervisor) and in fips-transport-udp (requests from the
// router, checked again before they reach getaddrinfo).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fips::privsep {

// Longest DNS name in text form, without a trailing dot (RFC 1035 §2.3.4).
constexpr size_t MAX_HOST_NAME = 253;
// Addresses one resolve answer may carry (resolver order, duplicates removed).
constexpr size_t MAX_RESOLVED_ADDRS = 8;
// Resolve requests one router may have outstanding at a worker.
constexpr size_t MAX_RESOLVES_IN_FLIGHT = 16;
// Longest error text in a resolve answer, in bytes.
constexpr size_t MAX_RESOLVE_ERROR = 200;

// A host name and a port (host order).
struct HostPort {
  std::string host;
  uint16_t port = 0;

  bool operator==(const HostPort&) const = default;
};

// True if `name` is a DNS host name we are willing to look up: 1 to 253
// bytes (one trailing dot allowed beyond that), labels of 1 to 63 bytes of
// letters, digits, '-' and '_', not starting or ending with '-'. Numeric
// IPv4 text passes too; callers try parseSocketAddress first.
bool isValidHostName(std::string_view name);

// Parses "name:port" (port 1-65535); nullopt if the name is not valid or
// the text is a bracketed IPv6 form.
std::optional<HostPort> parseHostPort(std::string_view text);

}  // namespace fips::privsep
