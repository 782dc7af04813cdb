// SPDX-License-Identifier: MIT
// Host names and the names of peers: the "name:port" form of a static peer's
// address, peer aliases, and the limits of a resolve request on the router <->
// transport channel (privsep/schema/transport.capnp). One rule for each, used
// by the config loader (fips --check, the supervisor, on operator input), in
// fips-router (config slice, hosts file) and in fips-transport-udp (requests
// from the router, checked again before they reach getaddrinfo).
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

// Why `alias` is not a valid peer alias or hosts-file name (one DNS label
// for `<alias>.fips`, the reference's src/upper/hosts.rs rules), or nullopt
// if it is. Checked in this order: not empty, at most 63 bytes, no "npub1"
// prefix in any case (ambiguous with npub names), no leading or trailing
// '-', only ASCII letters, digits and '-'.
std::optional<std::string> aliasError(std::string_view alias);

// Parses "name:port" (port 1-65535); nullopt if the name is not valid or
// the text is a bracketed IPv6 form.
std::optional<HostPort> parseHostPort(std::string_view text);

}  // namespace fips::privsep
