// SPDX-License-Identifier: MIT
// Unit tests for the address shape checks of the fips.yaml loader. Test-only.
#include "privsep/config/address.h"

#include <string>

#include <doctest/doctest.h>

namespace fips::privsep::config {

TEST_CASE("socket addresses") {
  CHECK(isSocketAddress("0.0.0.0:2121"));
  CHECK(isSocketAddress("[::]:2121"));
  CHECK(isSocketAddress("[fd00::1]:65535"));
  CHECK_FALSE(isSocketAddress("1.2.3"));
  CHECK_FALSE(isSocketAddress("1.2.3.4"));
  CHECK_FALSE(isSocketAddress("1.2.3.4:65536"));
  CHECK_FALSE(isSocketAddress("1.2.3.4:"));
  CHECK_FALSE(isSocketAddress("::1:2121"));
  CHECK_FALSE(isSocketAddress("example.org:2121"));
  CHECK_FALSE(isSocketAddress(std::string("1.2.3.4\0:1", 10)));
  CHECK(isSocketAddressV6("[fd12:3456::10]:80"));
  CHECK_FALSE(isSocketAddressV6("10.0.0.1:80"));
  CHECK(isSocketAddress("[fe80::1%2]:2121"));
  CHECK(isSocketAddress("[fe80::1%eth0]:2121"));
  CHECK(isSocketAddress("[fe80::1%vA-12.3]:2121"));
  CHECK_FALSE(isSocketAddress("[fe80::1%]:2121"));
  CHECK_FALSE(isSocketAddress("[fe80::1%4294967296]:2121"));
  CHECK_FALSE(isSocketAddress("[fe80::1%a-very-long-ifname]:2121"));
  CHECK_FALSE(isSocketAddress("[fe80::1%eth 0]:2121"));
  CHECK_FALSE(isSocketAddress("[fe80::1%eth0%1]:2121"));
}

TEST_CASE("mesh socket addresses: [fd00::/8]:port only") {
  CHECK(isMeshSocketAddress("[fd00::1]:2121"));
  CHECK(isMeshSocketAddress("[fdff:1::2%eth0]:2121"));
  CHECK_FALSE(isMeshSocketAddress("[fc00::1]:2121"));
  CHECK_FALSE(isMeshSocketAddress("[fe80::1%2]:2121"));
  CHECK_FALSE(isMeshSocketAddress("fd00::1"));
  CHECK_FALSE(isMeshSocketAddress("192.0.2.1:2121"));
  CHECK_FALSE(isMeshSocketAddress("fd.example:2121"));
}

TEST_CASE("hosts, IPs and CIDRs") {
  CHECK(isHostPort("example.org:2121"));
  CHECK(isHostPort("127.0.0.1:9050"));
  CHECK_FALSE(isHostPort("exa mple:1"));
  CHECK_FALSE(isHostPort("a..b:1"));
  // The resolver's rule (privsep/host-name.h): labels of 1-63 bytes, no '-'
  // at either end of a label.
  CHECK(isHostPort("node-b.example:2121"));
  CHECK(isHostPort("_srv.example.:2121"));
  CHECK_FALSE(isHostPort("-node.example:2121"));
  CHECK_FALSE(isHostPort("node-.example:2121"));
  CHECK_FALSE(isHostPort(std::string(64, 'a') + ".example:2121"));
  CHECK(isHostPort(std::string(63, 'a') + ".example:2121"));
  // A destination: port 0 cannot be dialled.
  CHECK_FALSE(isHostPort("192.0.2.1:0"));
  CHECK_FALSE(isHostPort("[2001:db8::1]:0"));
  CHECK_FALSE(isHostPort("node-b.example:0"));
  CHECK(isSocketAddress("0.0.0.0:0"));  // a bind address may leave the port to the kernel
  CHECK(isIpAddress("::1"));
  CHECK(isIpAddress("10.1.2.3"));
  CHECK_FALSE(isIpAddress("[::1]"));
  CHECK(isIpv6Cidr("fd01::/112"));
  CHECK_FALSE(isIpv6Cidr("fd01::/129"));
  CHECK_FALSE(isIpv6Cidr("10.0.0.0/8"));
}

TEST_CASE("loopback test follows the reference's text rules") {
  CHECK(isLoopbackAddress("127.0.0.1:2121"));
  CHECK(isLoopbackAddress("[::1]:2121"));
  CHECK(isLoopbackAddress("localhost:2121"));
  CHECK_FALSE(isLoopbackAddress("0.0.0.0:2121"));
  CHECK_FALSE(isLoopbackAddress("example.org:2121"));
}

}  // namespace fips::privsep::config
