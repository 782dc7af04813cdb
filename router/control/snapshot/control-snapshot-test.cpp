// SPDX-License-Identifier: MIT
// The NodeSnapshot builder on fixed inputs: status counts, a peer with its
// transport address and alias, link times as Unix ms, transports and
// counters (one drop counter per reason).
#include "router/control/snapshot/control-snapshot.h"

#include <map>
#include <variant>

#include <capnp/message.h>

#include <doctest/doctest.h>

#include "lib/identity/nip19.h"

namespace fips::router {
namespace {

// A valid npub (the reference's fipsctl test key).
constexpr const char* PEER_NPUB = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";

crypto::PublicKey peerKey() {
  return identity::decodeNpub(PEER_NPUB).value();
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
    const crypto::PublicKey key = peerKey();
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
  f.facts.displayNames[f.in.peers[0].addr] = "core-vm";
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

TEST_CASE("snapshot: sessions, connections, routing, identity cache from RoutingInput") {
  Fixture f;
  const crypto::PublicKey key = peerKey();
  const auto peerAddr = identity::NodeAddr::fromPublicKey(key);
  const identity::NodeAddr unknown(std::array<uint8_t, 16>{0x42});  // no key known here
  RoutingInput& r = f.in.routing;
  r.present = true;
  fsp::SessionInfo up{};
  up.state = fsp::SessionState::ESTABLISHED;
  up.initiator = true;
  up.pathMtu = 1400;
  up.packetsSent = 5;
  up.createdMs = 60'000;
  up.lastActivityMs = 64'000;
  up.sessionStartMs = 61'000;
  up.kBit = true;
  up.rekeys = 3;
  up.mmp = link::LinkMetrics{};
  up.mmp->srttMs = 12.5;
  up.mmp->lossRate = 0.1;
  fsp::SessionInfo hs{};
  hs.state = fsp::SessionState::INITIATING;
  hs.pathMtu = fsp::PathMtuState::UNKNOWN;
  hs.resends = 2;
  r.sessions = {{peerAddr, up}, {unknown, hs}};
  r.handshakes = {{.peer = peerAddr,
                   .key = key,
                   .to = *link::TransportAddr::make(1, std::array<uint8_t, 4>{192, 0, 2, 7}, 2121),
                   .ourIndex = 77,
                   .startMs = 61'000,
                   .resends = 3}};
  r.retries = {{.peer = peerAddr, .retryCount = 2, .dueMs = 70'000, .autoReconnect = false}};
  r.pendingLookups = {
      {.target = unknown, .initiatedMs = 62'000, .lastSentMs = 64'000, .attempt = 2}};
  r.forwarding.forwardedPackets = 11;
  r.forwarding.originatedBytes = 99;
  r.forwarding.dropPackets[static_cast<size_t>(routing::ForwardDrop::NO_ROUTE)] = 4;
  r.forwarding.routeClass[static_cast<size_t>(routing::RouteClass::TREE_UP)] = 6;
  r.lookups.reqInitiated = 7;
  r.identityCacheEntries = 1;
  r.identityCacheCapacity = 10'000;
  r.identities = {{peerAddr, key}};
  r.pendingTunDestinations = 1;
  r.pendingTunPackets = 3;

  capnp::MallocMessageBuilder msg;
  buildSnapshot(f.in, msg.initRoot<schema::NodeSnapshot>());
  auto root = msg.getRoot<schema::NodeSnapshot>().asReader();

  auto sessions = root.getSessions();
  CHECK(sessions.getCount() == 2);
  REQUIRE(sessions.getSessions().size() == 2);
  auto s0 = sessions.getSessions()[0];
  CHECK(s0.getNpub() == PEER_NPUB);
  CHECK(s0.getState() == "established");
  CHECK(s0.getIsInitiator());
  CHECK(s0.getPathMtu() == 1400);
  CHECK(s0.getRekeys() == 3);
  CHECK(s0.getCurrentKBit());
  CHECK(s0.getCreatedAtMs() == 1'700'000'060'000);
  CHECK(s0.getSessionStartMs() == 1'700'000'061'000);
  REQUIRE(s0.hasMmp());
  CHECK(s0.getMmp().getHasSrtt());
  CHECK(s0.getMmp().getSrttMs() == 12.5);
  CHECK(s0.getMmp().getLossRate() == 0.1);
  auto s1 = sessions.getSessions()[1];
  CHECK_FALSE(s1.hasMmp());
  CHECK(s1.getState() == "initiating");
  CHECK(s1.getNpub() == "");
  CHECK(s1.getPathMtu() == 0);
  CHECK(s1.getResendCount() == 2);
  CHECK(s1.getSessionStartMs() == 0);

  auto conns = root.getConnections();
  CHECK(conns.getCount() == 1);
  auto c = conns.getConnections()[0];
  CHECK(c.getLinkId() == 77);
  CHECK(c.getExpectedPeer() == PEER_NPUB);
  CHECK(c.getRemoteAddr() == "192.0.2.7:2121");
  CHECK(c.getIdleMs() == 4'000);
  CHECK(c.getHandshakeState() == "sent_msg1");

  auto routing = root.getRouting();
  CHECK(routing.getPendingTunPackets() == 3);
  CHECK(routing.getIdentityCacheEntries() == 1);
  REQUIRE(routing.getPendingLookups().size() == 1);
  CHECK(routing.getPendingLookups()[0].getAgeMs() == 3'000);
  CHECK(routing.getPendingLookups()[0].getAttempt() == 2);
  REQUIRE(routing.getRetries().size() == 1);
  CHECK(routing.getRetries()[0].getRetryAfterMs() == 1'700'000'070'000);
  CHECK_FALSE(routing.getRetries()[0].getAutoReconnect());
  std::map<std::string, uint64_t> counters;
  for (auto k : routing.getCounters())
    counters[std::string(k.getFamily()) + "." + std::string(k.getName())] = k.getValue();
  CHECK(counters["forwarding.forwarded_packets"] == 11);
  CHECK(counters["forwarding.originated_bytes"] == 99);
  CHECK(counters["forwarding.drop_no_route_packets"] == 4);
  CHECK(counters["forwarding.route_tree_up"] == 6);
  CHECK(counters.contains("forwarding.ttl_exhausted_bytes"));
  CHECK(counters.contains("forwarding.route_crosslink_ascend"));
  CHECK(counters["discovery.req_initiated"] == 7);

  auto ids = root.getIdentityCache();
  CHECK(ids.getCount() == 1);
  CHECK(ids.getMaxEntries() == 10'000);
  REQUIRE(ids.getEntries().size() == 1);
  CHECK(ids.getEntries()[0].getNpub() == PEER_NPUB);
  CHECK(ids.getEntries()[0].getIpv6()[0] == 0xfd);

  CHECK(root.getAcl().getEffectiveMode() == "default_open");
  CHECK_FALSE(root.getAcl().getImplemented());
}

TEST_CASE("snapshot: session and handshake lists stop at 1,000 with the count exact") {
  Fixture f;
  f.in.routing.present = true;
  fsp::SessionInfo info{};
  info.state = fsp::SessionState::INITIATING;
  for (size_t i = 0; i < SNAPSHOT_LIST_ENTRIES + 5; ++i) {
    std::array<uint8_t, 16> b{};
    b[0] = static_cast<uint8_t>(i >> 8);
    b[1] = static_cast<uint8_t>(i);
    f.in.routing.sessions.emplace_back(identity::NodeAddr(b), info);
  }
  capnp::MallocMessageBuilder msg;
  buildSnapshot(f.in, msg.initRoot<schema::NodeSnapshot>());
  auto sessions = msg.getRoot<schema::NodeSnapshot>().asReader().getSessions();
  CHECK(sessions.getCount() == SNAPSHOT_LIST_ENTRIES + 5);
  CHECK(sessions.getSessions().size() == SNAPSHOT_LIST_ENTRIES);
}

TEST_CASE("snapshot: the forwarding family reaches stats metrics names as the reference") {
  routing::ForwardingCounters c;
  c.receivedPackets = 1;
  c.dropBytes[static_cast<size_t>(routing::ForwardDrop::MTU_EXCEEDED)] = 2;
  std::map<std::string, uint64_t> rows;
  for (const auto& [name, value] : forwardingStats(c)) rows[name] = value;
  CHECK(rows["received_packets"] == 1);
  CHECK(rows["drop_mtu_exceeded_bytes"] == 2);
  CHECK(rows.contains("drop_send_error_packets"));
  CHECK(rows.contains("decode_error_packets"));
  CHECK(rows.contains("route_direct_peer"));
  CHECK(rows.size() == 24);  // the reference's 26 less warm_malformed_*
}

TEST_CASE("snapshot: per-link traffic and MMP (spec 02 §9)") {
  Fixture f;
  link::LinkMetrics& m = f.in.peers[0].metrics;
  m.mode = link::MmpMode::LIGHTWEIGHT;
  m.spinInitiator = true;
  m.packetsSent = 11;
  m.packetsRecv = 12;
  m.bytesSent = 1300;
  m.bytesRecv = 1400;
  m.srttMs = 12.5;
  m.rttvarMs = 3.0;
  m.lossRate = 0.25;
  m.etx = 1.5;
  m.smoothedEtx = 1.25;
  m.rttTrend = link::Trend::RISING;
  m.jitterUs = 800;
  m.linkCost = 1.6875;
  m.receiverReportsSent = 4;
  capnp::MallocMessageBuilder msg;
  buildSnapshot(f.in, msg.initRoot<schema::NodeSnapshot>());
  auto root = msg.getRoot<schema::NodeSnapshot>().asReader();
  auto peer = root.getPeers()[0];
  CHECK(peer.getStats().getPacketsSent() == 11);
  CHECK(peer.getStats().getPacketsRecv() == 12);
  CHECK(peer.getStats().getBytesSent() == 1300);
  CHECK(peer.getStats().getBytesRecv() == 1400);
  auto mmp = peer.getMmp();
  CHECK(mmp.getMode() == "lightweight");
  CHECK(mmp.getSpinBitRole() == "initiator");
  CHECK(mmp.getHasSrtt());
  CHECK(mmp.getSrttMs() == 12.5);
  CHECK(mmp.getRttvarMs() == 3.0);
  CHECK(mmp.getLossRate() == 0.25);
  CHECK(mmp.getEtx() == 1.5);
  CHECK_FALSE(mmp.getHasSmoothedLoss());
  CHECK(mmp.getHasSmoothedEtx());
  CHECK(mmp.getSmoothedEtx() == 1.25);
  CHECK(mmp.getRttTrend() == "rising");
  CHECK(mmp.getLossTrend() == "");
  CHECK(mmp.getJitterUs() == 800);
  CHECK(mmp.getLinkCost() == 1.6875);
  CHECK(mmp.getReceiverReportsSent() == 4);
  CHECK(root.getLinks()[0].getStats().getBytesRecv() == 1400);
}

}  // namespace
}  // namespace fips::router
