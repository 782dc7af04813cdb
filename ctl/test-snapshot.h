// SPDX-License-Identifier: MIT
// One fixed NodeSnapshot for every ctl test that renders the daemon's
// answers (fipsctl's tables and JSON, fipstop's tabs): a running node with
// a measured peer "core-vm" and an unmeasured one, a UDP transport, the
// spanning tree, bloom filters, caches, two sessions, one pending
// handshake and the routing state. Each section holds the values its
// renderer tests check; sections are independent (an address seen in one
// need not agree with another). Test code only; header-only.
#pragma once

#include <cstdint>
#include <string>

#include <capnp/message.h>

#include "control.capnp.h"

namespace fips::ctl::test {

// Unix ms the snapshot is rendered at.
inline constexpr uint64_t NOW_MS = 1'700'000'100'000;
inline constexpr const char* SELF_NPUB =
    "npub1selfselfselfselfselfselfselfselfselfselfselfselfselfsq6gd5";
inline constexpr const char* PEER_NPUB =
    "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";

// Node addresses (16 bytes) and their hex.
inline constexpr uint8_t ADDR_A[16] = {0x1b, 0x47, 0x88, 0xb7, 0xab, 0x7a, 0x43, 0x6a,
                                       0x61, 0x1f, 0xc5, 0x9f, 0xb1, 0xe3, 0x4c, 0x6e};
inline constexpr uint8_t ADDR_B[16] = {0x9a, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
                                       0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee};
inline constexpr uint8_t ADDR_C[16] = {0xc0, 0xff, 0xee, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
inline constexpr uint8_t ADDR_PEER[16] = {0xaa, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
inline constexpr uint8_t ADDR_LIGHT[16] = {0xbb, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
inline constexpr const char* HEX_A = "1b4788b7ab7a436a611fc59fb1e34c6e";
inline constexpr const char* HEX_B = "9a00112233445566778899aabbccddee";
inline constexpr const char* HEX_C = "c0ffee00000000000000000000000001";
inline constexpr const char* HEX_PEER = "aa0102030405060708090a0b0c0d0e0f";
// IPv6 addresses (fd + the first 15 bytes of the node address).
inline constexpr uint8_t IPV6_A[16] = {0xfd, 0x1b, 0x47, 0x88, 0xb7, 0xab, 0x7a, 0x43,
                                       0x6a, 0x61, 0x1f, 0xc5, 0x9f, 0xb1, 0xe3, 0x4c};
inline constexpr uint8_t IPV6_B[16] = {0xfd, 0x9a, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
                                       0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd};
inline constexpr uint8_t IPV6_C[16] = {0xfd, 0xc0, 0xff, 0xee, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

inline kj::ArrayPtr<const uint8_t> bytes(const uint8_t (&a)[16]) {
  return kj::arrayPtr(a, 16);
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// show status: running for 1h02m, one UDP peer, TUN disabled.
inline void fillStatus(schema::NodeSnapshot::Builder root) {
  auto s = root.initStatus();
  s.setNpub(SELF_NPUB);
  s.setNodeAddr(bytes(ADDR_A));
  s.setIpv6(bytes(IPV6_A));
  s.setVersion("0.1.0");
  s.setState("running");
  s.setUptimeSecs(3725);
  s.setPeerCount(1);
  s.setLinkCount(1);
  s.setTransportCount(1);
  s.setTunState("disabled");
  s.setControlSocket("/run/fips/control.sock");
  s.setPid(4242);
  s.setExePath("/usr/libexec/fips/fips-router");
  auto counts = s.initTransportPeerCounts(1);
  counts[0].setType("udp");
  counts[0].setCount(1);
}

// show peers: "core-vm" over UDP, up 90 s, MMP measured (SRTT 12.5 ms,
// smoothed loss 0.125, smoothed ETX 2.0, so LQI 2.25); "npub1abc" not
// measured yet.
inline void fillPeers(schema::NodeSnapshot::Builder root) {
  auto peers = root.initPeers(2);
  auto p = peers[0];
  p.setNpub(PEER_NPUB);
  p.setDisplayName("core-vm");
  p.setNodeAddr(bytes(ADDR_PEER));
  p.setIpv6(bytes(IPV6_A));
  p.setTransportId(1);
  p.setTransportType("udp");
  p.setTransportName("udp");
  p.setTransportAddr("10.99.0.2:2121");
  p.setOutbound(true);
  p.setAuthenticatedAtMs(NOW_MS - 90'000);
  p.setLastSeenMs(NOW_MS - 2'000);
  p.setOurIndex(0xabcdef01);
  p.setTheirIndex(7);
  p.setRekeys(3);
  auto s = p.initStats();
  s.setPacketsSent(1200);
  s.setPacketsRecv(1100);
  s.setBytesSent(96'000);
  s.setBytesRecv(88'000);
  auto m = p.initMmp();
  m.setMode("full");
  m.setSpinBitRole("initiator");
  m.setHasSrtt(true);
  m.setSrttMs(12.5);
  m.setLossRate(0.25);
  m.setEtx(1.5);
  m.setGoodputBps(2500.0);
  m.setDeliveryRatioForward(0.75);
  m.setDeliveryRatioReverse(0.875);
  m.setHasSmoothedLoss(true);
  m.setSmoothedLoss(0.125);
  m.setHasSmoothedEtx(true);
  m.setSmoothedEtx(2.0);
  m.setRttTrend("rising");
  m.setLossTrend("stable");
  m.setGoodputTrend("falling");
  m.setJitterTrend("stable");
  m.setEcnCeCount(3);
  m.setJitterUs(1500);
  m.setLinkCost(1.6875);

  auto u = peers[1];
  u.setNodeAddr(bytes(ADDR_LIGHT));
  u.setDisplayName("npub1abc");
  u.setTransportType("udp");
  u.setTransportName("udp");
  u.setTransportAddr("10.99.0.3:2121");
  u.setAuthenticatedAtMs(NOW_MS - 5'000);
  u.setLastSeenMs(NOW_MS - 1'000);
  auto um = u.initMmp();
  um.setMode("lightweight");
  um.setSpinBitRole("responder");
  um.setEtx(1.0);
  um.setDeliveryRatioForward(1.0);
  um.setDeliveryRatioReverse(1.0);
  um.setLinkCost(1.0);
  u.initStats();
}

// show links: the link to core-vm.
inline void fillLinks(schema::NodeSnapshot::Builder root) {
  auto l = root.initLinks(1)[0];
  l.setTransportId(1);
  l.setRemoteAddr("10.99.0.2:2121");
  l.setOutbound(true);
  l.setState("connected");
  l.setCreatedAtMs(NOW_MS - 90'000);
  l.setLastRecvMs(NOW_MS - 2'000);
  l.setNpub(PEER_NPUB);
  l.setDisplayName("core-vm");
  auto s = l.initStats();
  s.setPacketsSent(5);
  s.setPacketsRecv(6);
  s.setBytesSent(700);
  s.setBytesRecv(800);
}

// show transports: one UDP instance "lan".
inline void fillTransports(schema::NodeSnapshot::Builder root) {
  auto t = root.initTransports(1)[0];
  t.setTransportId(1);
  t.setType("udp");
  t.setName("udp/lan");
  t.setState("up");
  t.initLocalAddrs(1).set(0, "10.99.0.1:2121");
  t.setPacketsRecv(10);
  t.setPacketsSent(12);
  t.setBytesRecv(1000);
  t.setBytesSent(1200);
  t.setSendErrors(3);
  t.setKernelDrops(2);
}

// stats metrics: a plain counter and a labelled one.
inline void fillCounters(schema::NodeSnapshot::Builder root) {
  auto c = root.initCounters(3);
  c[0].setFamily("link");
  c[0].setName("handshakes_out");
  c[0].setValue(3);
  c[0].setHelp("msg1s this node initiated");
  for (unsigned i : {1u, 2u}) {
    c[i].setFamily("link");
    c[i].setName("drops");
    c[i].setLabelName("reason");
    c[i].setHelp("received datagrams dropped");
  }
  c[1].setLabelValue("short");
  c[1].setValue(5);
  c[2].setLabelValue("replay");
  c[2].setValue(0);
}

// show tree: B at depth 1 under root A ("node-a"); C is a peer whose
// TreeAnnounce is not in yet.
inline void fillTree(schema::NodeSnapshot::Builder root) {
  auto t = root.initTree();
  t.setMyNodeAddr(bytes(ADDR_B));
  t.setRoot(bytes(ADDR_A));
  t.setRootNpub("npub1root");
  t.setDepth(1);
  auto coords = t.initMyCoords(2);
  coords.set(0, bytes(ADDR_B));
  coords.set(1, bytes(ADDR_A));
  t.setParent(bytes(ADDR_A));
  t.setParentDisplayName("node-a");
  t.setDeclarationSequence(3);
  t.setDeclarationSigned(true);
  auto peers = t.initPeers(2);
  peers[0].setNodeAddr(bytes(ADDR_A));
  peers[0].setDisplayName("node-a");
  peers[0].setHasCoords(true);
  peers[0].initCoords(1).set(0, bytes(ADDR_A));
  peers[0].setRoot(bytes(ADDR_A));
  peers[0].setDistanceToUs(1);
  peers[1].setNodeAddr(bytes(ADDR_C));
  peers[1].setDisplayName("c0ffee00...");
  auto stats = t.initStats(2);
  stats[0].setName("received");
  stats[0].setValue(7);
  stats[1].setName("accepted");
  stats[1].setValue(6);
}

// show bloom: node-a's filter is in, C's is not.
inline void fillBloom(schema::NodeSnapshot::Builder root) {
  auto b = root.initBloom();
  b.setOwnNodeAddr(bytes(ADDR_B));
  b.setSequence(4);
  auto filters = b.initPeerFilters(2);
  filters[0].setPeer(bytes(ADDR_A));
  filters[0].setDisplayName("node-a");
  filters[0].setHasFilter(true);
  filters[0].setSetBits(25);
  filters[0].setFillRatio(0.003);
  filters[0].setEstimatedCount(2.0);
  filters[1].setPeer(bytes(ADDR_C));
  filters[1].setDisplayName("c0ffee00...");
  b.initStats(1)[0].setName("sent");
  b.getStats()[0].setValue(5);
}

// show cache: C's coordinates, 61 s old.
inline void fillCache(schema::NodeSnapshot::Builder root) {
  auto c = root.initCache();
  c.setCount(1);
  c.setMaxEntries(50000);
  c.setDefaultTtlMs(300000);
  c.setAvgAgeMs(61000);
  auto e = c.initEntries(1)[0];
  e.setNodeAddr(bytes(ADDR_C));
  e.setDisplayName("c0ffee00...");
  e.setIpv6(bytes(IPV6_C));
  auto path = e.initCoords(2);
  path.set(0, bytes(ADDR_C));
  path.set(1, bytes(ADDR_A));
  e.setDepth(1);
  e.setAgeMs(61000);
  e.setLastUsedMs(123456);
  e.setPathMtu(1280);
}

// show sessions: one established with B ("node-c"), one initiating to C;
// the count says one more than listed (the snapshot list was bounded).
inline void fillSessions(schema::NodeSnapshot::Builder root) {
  auto sessions = root.initSessions();
  sessions.setCount(3);
  auto list = sessions.initSessions(2);
  list[0].setRemoteAddr(bytes(ADDR_B));
  list[0].setNpub("npub1peer");
  list[0].setDisplayName("node-c");
  list[0].setState("established");
  list[0].setIsInitiator(true);
  list[0].setCreatedAtMs(NOW_MS - 125'000);
  list[0].setLastActivityMs(NOW_MS - 2'000);
  list[0].setSessionStartMs(NOW_MS - 60'000);
  list[0].setCurrentKBit(true);
  list[0].setPathMtu(1400);
  list[0].setRekeys(2);
  list[0].setPacketsSent(10);
  list[0].setPacketsRecv(9);
  list[0].setBytesSent(1000);
  list[0].setBytesRecv(900);
  auto mmp = list[0].initMmp();
  mmp.setMode("full");
  mmp.setHasSrtt(true);
  mmp.setSrttMs(42.5);
  mmp.setLossRate(0.25);
  mmp.setEtx(1.5);
  mmp.setHasSmoothedEtx(true);
  mmp.setSmoothedEtx(2.0);
  mmp.setDeliveryRatioForward(0.75);
  mmp.setDeliveryRatioReverse(1.0);
  list[1].setRemoteAddr(bytes(ADDR_C));
  list[1].setDisplayName("c0ffee00...");
  list[1].setState("initiating");
  list[1].setResendCount(2);
  list[1].setCreatedAtMs(NOW_MS - 3'000);
  list[1].setLastActivityMs(NOW_MS - 3'000);
}

// show connections: one outbound msg1 waiting 4 s.
inline void fillConnections(schema::NodeSnapshot::Builder root) {
  auto conns = root.initConnections();
  conns.setCount(1);
  auto c = conns.initConnections(1)[0];
  c.setLinkId(77);
  c.setDirection("outbound");
  c.setHandshakeState("sent_msg1");
  c.setStartedAtMs(NOW_MS - 4'000);
  c.setIdleMs(4'000);
  c.setResendCount(3);
  c.setExpectedPeer("npub1peer");
  c.setRemoteAddr("192.0.2.7:2121");
}

// show routing: caches, pending TUN packets, a lookup for C, a retry of
// node-c, and forwarding / discovery counters.
inline void fillRouting(schema::NodeSnapshot::Builder root) {
  auto r = root.initRouting();
  r.setCoordCacheEntries(4);
  r.setIdentityCacheEntries(5);
  r.setPendingTunDestinations(1);
  r.setPendingTunPackets(3);
  r.setRecentRequests(6);
  auto lookup = r.initPendingLookups(1)[0];
  lookup.setTarget(bytes(ADDR_C));
  lookup.setDisplayName("c0ffee00...");
  lookup.setAttempt(2);
  lookup.setAgeMs(3'000);
  auto retry = r.initRetries(1)[0];
  retry.setNodeAddr(bytes(ADDR_B));
  retry.setDisplayName("node-c");
  retry.setRetryCount(4);
  retry.setRetryAfterMs(NOW_MS + 8'000);
  retry.setAutoReconnect(true);
  auto counters = r.initCounters(3);
  counters[0].setFamily("forwarding");
  counters[0].setName("forwarded_packets");
  counters[0].setValue(11);
  counters[1].setFamily("forwarding");
  counters[1].setName("route_tree_up");
  counters[1].setValue(8);
  counters[2].setFamily("discovery");
  counters[2].setName("req_initiated");
  counters[2].setValue(2);
}

// show identity-cache and acl show (the reference's default state).
inline void fillIdentityAndAcl(schema::NodeSnapshot::Builder root) {
  auto ids = root.initIdentityCache();
  ids.setCount(1);
  ids.setMaxEntries(10000);
  auto id = ids.initEntries(1)[0];
  id.setNodeAddr(bytes(ADDR_B));
  id.setNpub("npub1peer");
  id.setDisplayName("node-c");
  id.setIpv6(bytes(IPV6_B));

  auto acl = root.initAcl();
  acl.setAllowFile("/etc/fips/peers.allow");
  acl.setDenyFile("/etc/fips/peers.deny");
  acl.setEffectiveMode("default_open");
  acl.setDefaultDecision("allow");
}

// Every section into `root`.
inline void fillSnapshot(schema::NodeSnapshot::Builder root) {
  fillStatus(root);
  fillPeers(root);
  fillLinks(root);
  fillTransports(root);
  fillCounters(root);
  fillTree(root);
  fillBloom(root);
  fillCache(root);
  fillSessions(root);
  fillConnections(root);
  fillRouting(root);
  fillIdentityAndAcl(root);
}

// The snapshot in a message of its own.
struct TestSnapshot {
  capnp::MallocMessageBuilder msg;
  schema::NodeSnapshot::Builder root = msg.initRoot<schema::NodeSnapshot>();

  TestSnapshot() { fillSnapshot(root); }
  schema::NodeSnapshot::Reader get() { return root.asReader(); }
};

}  // namespace fips::ctl::test
