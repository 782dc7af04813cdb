// SPDX-License-Identifier: MIT
// Socket addresses: parsing the config's "address:port" forms and converting
// to and from schema Endpoints. Runs in fips-transport-udp (bind addresses,
// endpoints from the router) and fips-router (static peer addresses); the
// text comes from the validated config.
#pragma once

#include <netinet/in.h>
#include <optional>
#include <string_view>
#include <sys/socket.h>

#include "common.capnp.h"

namespace fips::privsep {

// A socket address (IPv4 or IPv6) and its length.
struct SocketAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;

  int family() const { return storage.ss_family; }
};

// Parses "1.2.3.4:2121", "[::]:2121" or "[fe80::1%eth0]:2121" (numeric
// addresses only; an interface name in a scope is resolved with
// if_nametoindex). nullopt if the text is not one of those forms.
std::optional<SocketAddress> parseSocketAddress(std::string_view text);

// Fills a schema Endpoint (4 or 16 address bytes, port in host order).
void toEndpoint(const SocketAddress& address, schema::Endpoint::Builder out);

// An Endpoint from the router back to a socket address; nullopt if its
// address is neither 4 nor 16 bytes.
std::optional<SocketAddress> fromEndpoint(schema::Endpoint::Reader endpoint);

}  // namespace fips::privsep
