// SPDX-License-Identifier: MIT
// The router's reading of the peers: slice: numeric IPv4/IPv6 (with scope)
// addresses, host names for the resolver, fd00::/8 and junk refused.
#include "router/transports/static-peers.h"

#include <algorithm>
#include <array>
#include <variant>

#include <capnp/message.h>

#include <doctest/doctest.h>

#include "lib/identity/nip19.h"

namespace fips::router {
namespace {

std::string generatorNpub() {
  const std::array<uint8_t, 32> x = {0x79, 0xBE, 0x66, 0x7E, 0xF9, 0xDC, 0xBB, 0xAC,
                                     0x55, 0xA0, 0x62, 0x95, 0xCE, 0x87, 0x0B, 0x07,
                                     0x02, 0x9B, 0xFC, 0xDB, 0x2D, 0xCE, 0x28, 0xD9,
                                     0x59, 0xF2, 0x81, 0x5B, 0x16, 0xF8, 0x17, 0x98};
  auto key = crypto::PublicKey::fromXOnly(std::span<const uint8_t, 32>(x));
  return identity::encodeNpub(*key);
}

bool mentions(const std::vector<std::string>& warnings, const std::string& text) {
  return std::any_of(warnings.begin(), warnings.end(),
                     [&](const auto& w) { return w.find(text) != std::string::npos; });
}

TEST_CASE("static peers: numeric, scoped, host names, tcp; fd00::/8 and junk refused") {
  capnp::MallocMessageBuilder msg;
  auto peers = msg.initRoot<schema::RouterConfig>().initPeers(1);
  peers[0].setNpub(generatorNpub());
  peers[0].setAlias("b");
  peers[0].setAutoConnect(true);
  const std::array<std::pair<const char*, const char*>, 9> addrs = {{
      {"udp", "10.99.0.2:2121"},
      {"udp", "[fe80::2%lo]:2121"},
      {"udp", "node-b.test:2121"},
      {"udp", "[fd00::1]:2121"},
      {"udp", "not a host:2121"},
      {"tcp", "10.99.0.2:443"},
      {"udp/main", "[2001:db8::2]:2121"},
      {"tcp", "node-b.test:443"},
      {"ble", "00:11:22:33:44:55"},
  }};
  auto list = peers[0].initAddresses(static_cast<unsigned>(addrs.size()));
  for (unsigned i = 0; i < addrs.size(); ++i) {
    list[i].setTransport(addrs[i].first);
    list[i].setAddr(addrs[i].second);
  }
  privsep::EventBase base;
  TransportSet transports(base, [](const link::TransportAddr&, std::span<const uint8_t>) {});
  std::vector<std::string> warnings;
  auto out = dialablePeers(msg.getRoot<schema::RouterConfig>().asReader().getPeers(), transports,
                           warnings);
  REQUIRE(out.size() == 1);
  const DialablePeer& peer = out[0];
  CHECK(peer.name == "b");
  REQUIRE(peer.addrs.size() == 4);
  CHECK(peer.addrs[0].ipLen == 4);
  CHECK(peer.addrs[0].port == 2121);
  CHECK(peer.addrs[1].isIpv6());
  CHECK(peer.addrs[1].scopeId == 1);  // lo
  CHECK(peer.addrs[2].transportId == transports.idFor("tcp"));
  CHECK(peer.addrs[2].port == 443);
  CHECK(peer.addrs[3].transportId == transports.idFor("udp/main"));
  CHECK(peer.addrs[3].transportId != transports.idFor("udp"));
  REQUIRE(peer.hosts.size() == 1);
  CHECK(peer.hosts[0].target == privsep::HostPort{"node-b.test", 2121});
  CHECK(peer.hosts[0].transportId == transports.idFor("udp"));
  CHECK(mentions(warnings, "[fd00::1]:2121 is in fd00::/8"));
  CHECK(mentions(warnings, "not a host:2121 is neither"));
  CHECK(mentions(warnings, "node-b.test:443 is not a numeric ip:port"));
  CHECK(mentions(warnings, "transport ble is not supported yet"));
  CHECK(warnings.size() == 4);
}

TEST_CASE("static peers: a peer with nothing usable is not dialed") {
  capnp::MallocMessageBuilder msg;
  auto peers = msg.initRoot<schema::RouterConfig>().initPeers(1);
  peers[0].setNpub(generatorNpub());
  peers[0].setAutoConnect(true);
  auto list = peers[0].initAddresses(1);
  list[0].setTransport("udp");
  list[0].setAddr("[fd12::1]:2121");
  privsep::EventBase base;
  TransportSet transports(base, [](const link::TransportAddr&, std::span<const uint8_t>) {});
  std::vector<std::string> warnings;
  CHECK(
      dialablePeers(msg.getRoot<schema::RouterConfig>().asReader().getPeers(), transports, warnings)
          .empty());
  CHECK(mentions(warnings, "no usable address"));
}

}  // namespace
}  // namespace fips::router
