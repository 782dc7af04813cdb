// SPDX-License-Identifier: MIT
// The peer addresses a Tor transport dials ("<56 base32>.onion:443",
// "host.example:2121", "192.0.2.1:2121", "[2001:db8::1]:2121") and the
// SOCKS5 credentials that isolate each peer's streams on its own circuit.
// Runs in fips-router (config check) and fips-transport-tor (requests from
// the router); the text comes from config or from the router.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "transports/tor/socks5-client.h"

namespace fips::transport::tor {

// Longest host a Tor address may have, so that "host:port" fits in the
// 255-byte SOCKS5 password used for isolation.
constexpr size_t TOR_MAX_HOST = 249;

// A parsed Tor peer address, or why the text is not one.
struct TorAddress {
  std::optional<Socks5Target> target;
  std::string error;
};

// Parses a Tor peer address. A name ending in ".onion" must end in a v3
// onion label (56 characters of base32, either case; subdomains allowed);
// any other name must be a valid DNS name with at least one dot (tor
// resolves it at the exit; the reference's rule); numeric IPv4 "a.b.c.d:port"
// and IPv6 "[addr]:port" are sent as addresses. Port 1-65535.
TorAddress parseTorAddress(std::string_view text);

// True if `host` is "<56 base32>.onion" (no subdomain): the form of tor's
// hostname file and of ADD_ONION's service id plus ".onion".
bool isOnionV3Hostname(std::string_view host);

// The credentials for dialing `target`: user "fips", password "host:port"
// (the reference's per-destination isolation key), so with tor's
// IsolateSOCKSAuth each peer gets its own circuit.
Socks5Auth torIsolationAuth(const Socks5Target& target);

}  // namespace fips::transport::tor
