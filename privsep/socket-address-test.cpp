// SPDX-License-Identifier: MIT
#include "privsep/socket-address.h"

#include <arpa/inet.h>

#include <capnp/message.h>

#include <doctest/doctest.h>

using fips::privsep::fromEndpoint;
using fips::privsep::parseSocketAddress;
using fips::privsep::toEndpoint;

TEST_CASE("socket addresses: IPv4, IPv6 and IPv6 with a scope") {
  auto v4 = parseSocketAddress("10.99.0.2:2121");
  REQUIRE(v4);
  CHECK(v4->family() == AF_INET);
  CHECK(ntohs(reinterpret_cast<const sockaddr_in*>(&v4->storage)->sin_port) == 2121);

  auto v6 = parseSocketAddress("[2001:db8::2]:2121");
  REQUIRE(v6);
  CHECK(v6->family() == AF_INET6);
  CHECK(reinterpret_cast<const sockaddr_in6*>(&v6->storage)->sin6_scope_id == 0);

  // A scope by interface name (lo is ifindex 1 in every namespace) or number.
  for (const char* text : {"[fe80::2%lo]:2121", "[fe80::2%1]:2121"}) {
    auto scoped = parseSocketAddress(text);
    REQUIRE(scoped);
    const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(&scoped->storage);
    CHECK(sin6->sin6_scope_id == 1);
    CHECK(ntohs(sin6->sin6_port) == 2121);
  }
}

TEST_CASE("socket addresses: what is not numeric address:port") {
  for (const char* text :
       {"node-b:2121", "10.99.0.2", "10.99.0.2:", "10.99.0.2:65536", "[fe80::2%no-such-if]:2121",
        "[2001:db8::2]", "2001:db8::2:2121", "[2001:db8::2]2121", "", ":2121"}) {
    CAPTURE(text);
    CHECK_FALSE(parseSocketAddress(text));
  }
}

TEST_CASE("socket addresses: through a schema Endpoint and back, scope kept") {
  auto scoped = parseSocketAddress("[fe80::2%1]:2121");
  REQUIRE(scoped);
  capnp::MallocMessageBuilder msg;
  auto endpoint = msg.initRoot<fips::schema::Endpoint>();
  toEndpoint(*scoped, endpoint);
  CHECK(endpoint.getScopeId() == 1);
  auto back = fromEndpoint(endpoint.asReader());
  REQUIRE(back);
  CHECK(back->length == scoped->length);
  const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(&back->storage);
  CHECK(sin6->sin6_scope_id == 1);
  CHECK(ntohs(sin6->sin6_port) == 2121);
}
