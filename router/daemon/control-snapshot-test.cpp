// SPDX-License-Identifier: MIT
// The NodeSnapshot builder on fixed inputs: status counts, a peer with its
// transport address and alias, link times as Unix ms, transports and
// counters (one drop counter per reason).
#include "router/daemon/control-snapshot.h"

#include <variant>

#include <capnp/message.h>

#include <doctest/doctest.h>

#include "router/identity/nip19.h"

namespace fips::router {
namespace {

// A valid npub (the reference's fipsctl test key).
constexpr const char* PEER_NPUB = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";

identity::PublicKey peerKey() {
  return std::get<identity::PublicKey>(identity::decodeNpub(PEER_NPUB));
}

struct Fixture {
  NodeFacts facts;
  SnapshotInput in;
  Fixture() {
    facts.npub = "npub1self";
    facts.version = "0.1.0";
    facts.controlSocket = "/run/fips/control.sock";
    facts.pid = 42;
    in.facts = &facts;
    in.state = "running";
    in.tunState = "disabled";
    in.nowMonoMs = 65'000;
    in.nowUnixMs = 1'700'000'065'000;
    TransportInfo udp;
    udp.id = 1;
    udp.name = "udp";
    udp.bound = true;
    udp.localAddrs = {"10.0.0.1:2121"};
    udp.packetsIn = 7;
    in.transports = {udp};
    const identity::PublicKey key = peerKey();
    link::PeerInfo peer{identity::NodeAddr::fromPublicKey(key), key,
                        *link::TransportAddr::make(1, std::array<uint8_t, 4>{10, 0, 0, 2}, 2121)};
    peer.outbound = true;
    peer.upSinceMs = 5'000;
    peer.lastRecvMs = 64'000;
    in.peers = {peer};
    in.pendingHandshakes = 2;
    in.linkCounters.handshakesOut = 3;
    in.linkCounters.drops[static_cast<size_t>(link::DropReason::DECRYPT_FAILED)] = 9;
  }
};

TEST_CASE("snapshot: status, peer, link, transport") {
  Fixture f;
  f.facts.aliases[f.in.peers[0].addr] = "core-vm";
  capnp::MallocMessageBuilder msg;
  buildSnapshot(f.in, msg.initRoot<schema::NodeSnapshot>());
  auto root = msg.getRoot<schema::NodeSnapshot>().asReader();

  auto status = root.getStatus();
  CHECK(status.getPeerCount() == 1);
  CHECK(status.getConnectionCount() == 2);
  CHECK(status.getTransportCount() == 1);
  CHECK(status.getUptimeSecs() == 65);
  CHECK(status.getPid() == 42);
  REQUIRE(status.getTransportPeerCounts().size() == 1);
  CHECK(status.getTransportPeerCounts()[0].getType() == "udp");
  CHECK(status.getTransportPeerCounts()[0].getCount() == 1);

  REQUIRE(root.getPeers().size() == 1);
  auto peer = root.getPeers()[0];
  CHECK(peer.getNpub() == PEER_NPUB);
  CHECK(peer.getDisplayName() == "core-vm");
  CHECK(peer.getTransportAddr() == "10.0.0.2:2121");
  CHECK(peer.getTransportName() == "udp");
  CHECK(peer.getAuthenticatedAtMs() == 1'700'000'005'000);
  CHECK(peer.getLastSeenMs() == 1'700'000'064'000);
  CHECK(peer.getIpv6()[0] == 0xfd);

  REQUIRE(root.getLinks().size() == 1);
  CHECK(root.getLinks()[0].getRemoteAddr() == "10.0.0.2:2121");
  CHECK(root.getLinks()[0].getOutbound());

  REQUIRE(root.getTransports().size() == 1);
  CHECK(root.getTransports()[0].getState() == "up");
  CHECK(root.getTransports()[0].getPacketsRecv() == 7);
}

TEST_CASE("snapshot: without an alias the display name is the short npub") {
  Fixture f;
  capnp::MallocMessageBuilder msg;
  buildSnapshot(f.in, msg.initRoot<schema::NodeSnapshot>());
  auto peer = msg.getRoot<schema::NodeSnapshot>().asReader().getPeers()[0];
  CHECK(peer.getDisplayName() == "npub180cv...h6w6");
  CHECK(shortNpub("x") == "x");
}

TEST_CASE("snapshot: counters carry every drop reason") {
  Fixture f;
  capnp::MallocMessageBuilder msg;
  buildSnapshot(f.in, msg.initRoot<schema::NodeSnapshot>());
  size_t drops = 0;
  bool sawDecrypt = false;
  for (auto c : msg.getRoot<schema::NodeSnapshot>().asReader().getCounters()) {
    if (c.getFamily() == "link" && c.getName() == "drops") {
      ++drops;
      if (c.getLabelValue() == "decrypt_failed") sawDecrypt = c.getValue() == 9;
    }
    if (c.getName() == "handshakes_out") CHECK(c.getValue() == 3);
  }
  CHECK(drops == link::DROP_REASON_COUNT);
  CHECK(sawDecrypt);
}

}  // namespace
}  // namespace fips::router
