// SPDX-License-Identifier: MIT
// fipstop's model from fixed snapshots: each tab's lines, the tab and
// status bars, and what shows before the daemon answers or when it is gone.
#include "ctl/top/tab-views.h"

#include <algorithm>
#include <cmath>

#include <capnp/message.h>

#include <doctest/doctest.h>

#include "ctl/top/sparkline.h"

namespace fips::ctl::top {
namespace {

constexpr const char* SELF_NPUB = "npub1selfselfselfselfselfselfselfselfselfselfselfselfselfsq6gd5";
constexpr const char* PEER_NPUB = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";
constexpr uint64_t NOW_MS = 1'700'000'100'000;
const uint8_t SELF_ADDR[16] = {0x1b, 0x47, 0x88, 0xb7, 0xab, 0x7a, 0x43, 0x6a,
                               0x61, 0x1f, 0xc5, 0x9f, 0xb1, 0xe3, 0x4c, 0x6e};
const uint8_t PEER_ADDR[16] = {0x0a, 0x0b, 0x0c, 0x0d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
const uint8_t PEER_IPV6[16] = {0xfd, 0x0a, 0x0b, 0x0c, 0x0d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

// A node at depth 1 under its one UDP peer, which is the root.
TopData fixture() {
  TopData data;
  data.everConnected = true;
  data.nowUnixMs = NOW_MS;
  data.refreshSecs = 2;
  Answers& a = *data.answers;
  auto snap = a.snapshot;

  auto s = snap.initStatus();
  s.setNpub(SELF_NPUB);
  s.setNodeAddr(kj::arrayPtr(SELF_ADDR, 16));
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
  a.hasStatus = true;

  auto p = snap.initPeers(1)[0];
  p.setNpub(PEER_NPUB);
  p.setDisplayName("core-vm");
  p.setNodeAddr(kj::arrayPtr(PEER_ADDR, 16));
  p.setIpv6(kj::arrayPtr(PEER_IPV6, 16));
  p.setTransportId(1);
  p.setTransportType("udp");
  p.setTransportName("udp");
  p.setTransportAddr("10.99.0.2:2121");
  p.setOutbound(true);
  p.setAuthenticatedAtMs(NOW_MS - 90'000);
  p.setLastSeenMs(NOW_MS - 2'000);
  p.setRekeys(3);
  a.hasPeers = true;

  auto l = snap.initLinks(1)[0];
  l.setTransportId(1);
  l.setRemoteAddr("10.99.0.2:2121");
  l.setOutbound(true);
  l.setState("connected");
  l.setNpub(PEER_NPUB);
  a.hasLinks = true;

  auto t = snap.initTransports(1)[0];
  t.setTransportId(1);
  t.setType("udp");
  t.setName("udp");
  t.setState("up");
  t.initLocalAddrs(1).set(0, "10.99.0.1:2121");
  t.setPacketsSent(12);
  t.setPacketsRecv(10);
  t.setBytesSent(1200);
  t.setBytesRecv(3 * 1024 * 1024);
  a.hasTransports = true;

  auto c = snap.initCounters(2);
  c[0].setFamily("discovery");
  c[0].setName("req_received");
  c[0].setValue(7);
  c[1].setFamily("link");
  c[1].setName("handshakes_out");
  c[1].setValue(1);
  a.hasCounters = true;

  auto tree = snap.initTree();
  tree.setMyNodeAddr(kj::arrayPtr(SELF_ADDR, 16));
  tree.setRoot(kj::arrayPtr(PEER_ADDR, 16));
  tree.setRootNpub(PEER_NPUB);
  tree.setDepth(1);
  tree.setParent(kj::arrayPtr(PEER_ADDR, 16));
  tree.setParentDisplayName("core-vm");
  tree.setDeclarationSequence(4);
  tree.setDeclarationSigned(true);
  auto coords = tree.initMyCoords(2);
  coords.set(0, kj::arrayPtr(SELF_ADDR, 16));
  coords.set(1, kj::arrayPtr(PEER_ADDR, 16));
  auto tp = tree.initPeers(1)[0];
  tp.setNodeAddr(kj::arrayPtr(PEER_ADDR, 16));
  tp.setDisplayName("core-vm");
  tp.setHasCoords(true);
  tp.initCoords(1).set(0, kj::arrayPtr(PEER_ADDR, 16));
  tp.setDistanceToUs(1);
  auto ts = tree.initStats(1)[0];
  ts.setFamily("tree");
  ts.setName("accepted");
  ts.setValue(5);
  a.hasTree = true;

  auto bloom = snap.initBloom();
  bloom.setOwnNodeAddr(kj::arrayPtr(SELF_ADDR, 16));
  bloom.setSequence(9);
  auto f = bloom.initPeerFilters(1)[0];
  f.setPeer(kj::arrayPtr(PEER_ADDR, 16));
  f.setDisplayName("core-vm");
  f.setHasFilter(true);
  f.setSetBits(42);
  f.setFillRatio(0.0125);
  f.setEstimatedCount(3.2);
  a.hasBloom = true;

  auto cache = snap.initCache();
  cache.setCount(1);
  cache.setMaxEntries(50000);
  cache.setDefaultTtlMs(300'000);
  auto e = cache.initEntries(1)[0];
  e.setNodeAddr(kj::arrayPtr(PEER_ADDR, 16));
  e.setDisplayName("core-vm");
  e.setIpv6(kj::arrayPtr(PEER_IPV6, 16));
  e.initCoords(1).set(0, kj::arrayPtr(PEER_ADDR, 16));
  e.setAgeMs(65'000);
  e.setPathMtu(1280);
  a.hasCache = true;

  auto sessions = snap.initSessions();
  sessions.setCount(1);
  auto se = sessions.initSessions(1)[0];
  se.setRemoteAddr(kj::arrayPtr(PEER_ADDR, 16));
  se.setDisplayName("core-vm");
  se.setState("established");
  se.setIsInitiator(true);
  se.setLastActivityMs(NOW_MS - 3'000);
  se.setPacketsSent(40);
  se.setPacketsRecv(38);
  se.setBytesSent(4096);
  se.setBytesRecv(2048);
  se.setPathMtu(1280);
  a.hasSessions = true;

  auto routing = snap.initRouting();
  routing.setCoordCacheEntries(1);
  routing.setIdentityCacheEntries(2);
  routing.setPendingTunDestinations(1);
  routing.setPendingTunPackets(3);
  auto lookup = routing.initPendingLookups(1)[0];
  lookup.setTarget(kj::arrayPtr(PEER_ADDR, 16));
  lookup.setDisplayName("far-node");
  lookup.setAttempt(2);
  lookup.setAgeMs(1'500);
  auto retry = routing.initRetries(1)[0];
  retry.setNodeAddr(kj::arrayPtr(PEER_ADDR, 16));
  retry.setDisplayName("gone-peer");
  retry.setRetryCount(4);
  retry.setRetryAfterMs(NOW_MS + 8'000);
  retry.setAutoReconnect(true);
  auto rc = routing.initCounters(2);
  rc[0].setFamily("forwarding");
  rc[0].setName("delivered_packets");
  rc[0].setValue(11);
  rc[1].setFamily("discovery");
  rc[1].setName("req_received");
  rc[1].setValue(7);
  a.hasRouting = true;
  return data;
}

// The daemon's history: peer_count 0 then 1 after two gaps, bytes_in, loss.
void setHistory(TopData& data, size_t windowIndex = 0) {
  capnp::MallocMessageBuilder msg;
  auto list = msg.initRoot<schema::StatsAllHistoryResult>().initSeries(4);
  const double gap = std::nan("");
  auto fill = [&](size_t i, const char* metric, const char* unit,
                  std::initializer_list<double> values) {
    list[i].setMetric(metric);
    list[i].setUnit(unit);
    list[i].setGranularitySeconds(1);
    auto v = list[i].initValues(static_cast<unsigned>(values.size()));
    unsigned k = 0;
    for (double x : values) v.set(k++, x);
  };
  fill(0, "peer_count", "peers", {gap, gap, 0, 1, 1});
  fill(1, "bytes_in", "bytes/s", {gap, 512, 2048});
  fill(2, "loss_rate", "fraction", {gap, gap});
  fill(3, "packets_in", "packets/s", {1, 2.5});
  data.history.set(list.asReader(), GRAPH_WINDOWS[windowIndex]);
}

TabView show(Tab tab, const TopData& data, int selected = -1, bool detail = false) {
  ViewState s;
  s.tab = tab;
  s.selected = selected;
  s.detail = detail;
  return buildTab(s, data, 100);
}

// The index of the first line containing every needle, -1 when none does.
int find(const TabView& view, std::initializer_list<std::string> needles) {
  for (size_t i = 0; i < view.lines.size(); ++i) {
    const std::string& text = view.lines[i].text;
    if (std::all_of(needles.begin(), needles.end(),
                    [&](const std::string& n) { return text.find(n) != std::string::npos; }))
      return static_cast<int>(i);
  }
  return -1;
}

TEST_CASE("Node tab: runtime, identity with the npub, state, root and the history rows") {
  TopData data = fixture();
  setHistory(data);
  auto view = show(Tab::Node, data);
  CHECK(find(view, {"ver: 0.1.0", "pid: 4242", "uptime: 1h02m"}) >= 0);
  CHECK(find(view, {"npub:", SELF_NPUB}) >= 0);
  CHECK(find(view, {"node_addr:", "1b4788b7ab7a436a611fc59fb1e34c6e"}) >= 0);
  CHECK(find(view, {"state: running  tun: disabled  leaf: false"}) >= 0);
  CHECK(find(view, {"peers: 1", "links: 1", "transports: 1"}) >= 0);
  CHECK(find(view, {"root: 0a0b0c0d00000000…", "depth 1"}) >= 0);
  CHECK(find(view, {"transports: udp (1)"}) >= 0);
  // Leading gaps are dropped: three samples, min 0 max 1, value 1.
  const int peersRow = find(view, {"  peer_count      ▁██  1"});
  REQUIRE(peersRow >= 0);
  CHECK(view.lines[size_t(peersRow)].tone == Tone::Plot);
  CHECK(find(view, {"  bytes_in        ▁█  2.0KB/s"}) >= 0);
  CHECK(find(view, {"  loss_rate         -"}) >= 0);  // no sample yet
  CHECK(find(view, {"packets_in"}) == -1);            // on the Graphs tab only
  CHECK(find(view, {"History (1m / 1s)"}) >= 0);
  CHECK(view.lines.size() <= 21);  // fits 24 lines with the bars
  CHECK(view.selectableRows == 0);
}

TEST_CASE("Node tab: history not served") {
  TopData data = fixture();
  data.history.unavailable("control request failed: method not implemented");
  auto view = show(Tab::Node, data);
  CHECK(find(view, {"not available: control request failed: method not implemented"}) >= 0);
}

TEST_CASE("Node tab: the root says so") {
  TopData data = fixture();
  data.answers->snapshot.getTree().setIsRoot(true);
  CHECK(find(show(Tab::Node, data), {"root: I am the one who roots"}) >= 0);
}

TEST_CASE("Peers tab: a table row per peer, selectable, with a detail view") {
  TopData data = fixture();
  auto view = show(Tab::Peers, data);
  CHECK(find(view, {"Peers (1)"}) >= 0);
  const int header = find(view, {"Name", "Npub", "Transport", "Address", "Dir", "Up", "Idle"});
  REQUIRE(header >= 0);
  CHECK(view.lines[size_t(header)].tone == Tone::Header);
  const int row = find(
      view, {"core-vm", "npub180cvv07tjdr…", "udp", "10.99.0.2:2121", "out", "1m30s", "2s", "3"});
  CHECK(row == header + 1);
  CHECK(view.selectableRows == 1);
  CHECK(view.selectedLine == -1);

  view = show(Tab::Peers, data, 0);
  CHECK(view.selectedLine == row);
  CHECK(view.lines[size_t(row)].tone == Tone::Selected);

  view = show(Tab::Peers, data, 0, true);
  CHECK(find(view, {"Peer Detail: core-vm"}) >= 0);
  CHECK(find(view, {"npub", PEER_NPUB}) >= 0);
  CHECK(find(view, {"ipv6", "fd0a:b0c:d00::"}) >= 0);
  CHECK(find(view, {"address", "10.99.0.2:2121"}) >= 0);
}

TEST_CASE("Transports tab: each transport with its links under it; detail lists them") {
  TopData data = fixture();
  auto view = show(Tab::Transports, data);
  const int row = find(view, {"udp 10.99.0.1:2121", "up", "12", "10", "1.2KB", "3.0MB"});
  REQUIRE(row >= 0);
  CHECK(find(view, {"└ 10.99.0.2:2121", "connected", "npub180cvv07tjdr…"}) == row + 1);
  CHECK(view.selectableRows == 1);  // link rows are not selectable
  view = show(Tab::Transports, data, 0, true);
  CHECK(find(view, {"Transport Detail: udp"}) >= 0);
  CHECK(find(view, {"Links (1)"}) >= 0);
}

TEST_CASE("Tree, Filters and Routing tabs") {
  TopData data = fixture();
  auto tree = show(Tab::Tree, data);
  CHECK(find(tree, {"root:", "0a0b0c0d000000000000000000000001", PEER_NPUB}) >= 0);
  CHECK(find(tree, {"parent:", "core-vm"}) >= 0);
  CHECK(find(tree, {"coords:", "1b4788b7ab7a436a… → 0a0b0c0d00000000…"}) >= 0);
  CHECK(find(tree, {"declaration: seq 4, signed"}) >= 0);
  CHECK(find(tree, {"core-vm", "0", "1"}) >= 0);
  CHECK(find(tree, {"accepted", "5"}) >= 0);

  auto filters = show(Tab::Filters, data);
  CHECK(find(filters, {"sequence:", "9"}) >= 0);
  CHECK(find(filters, {"core-vm", "42", "1.2%", "3"}) >= 0);

  auto routing = show(Tab::Routing, data);
  CHECK(find(routing, {"coord cache: 1  identity cache: 2"}) >= 0);
  CHECK(find(routing, {"pending TUN: 1 destinations, 3 packets"}) >= 0);
  CHECK(find(routing, {"far-node", "0a0b0c0d00000000…", "2", "1s"}) >= 0);
  CHECK(find(routing, {"gone-peer", "4", "in 8s", "yes"}) >= 0);
  CHECK(find(routing, {"forwarding.delivered_packets", "11"}) >= 0);
  CHECK(find(routing, {"discovery.req_received", "7"}) >= 0);
  CHECK(find(routing, {"Coordinate Cache (1 of 50000, 0 expired, ttl 300s)"}) >= 0);
  CHECK(find(routing, {"core-vm", "fd0a:b0c:d00::", "1m05s", "1280"}) >= 0);
  data.answers->hasRouting = false;
  CHECK(find(show(Tab::Routing, data), {"not available from this daemon yet"}) >= 0);
}

TEST_CASE("Sessions tab: a row per FSP session") {
  TopData data = fixture();
  auto view = show(Tab::Sessions, data);
  CHECK(find(view, {"Sessions (1)"}) >= 0);
  CHECK(find(view, {"Name", "Remote Addr", "State", "Role", "Path MTU", "Last Activity"}) >= 0);
  CHECK(find(view, {"core-vm", "0a0b0c0d00000000…", "established", "initiator", "1280", "40", "38",
                    "4.0KB", "2.0KB", "3s ago"}) >= 0);
  data.answers->hasSessions = false;
  CHECK(find(show(Tab::Sessions, data), {"not available from this daemon yet"}) >= 0);
}

TEST_CASE("Performance: not served by this daemon yet") {
  TopData data = fixture();
  CHECK(find(show(Tab::Performance, data), {"not available from this daemon yet"}) >= 0);
}

TEST_CASE("Graphs tab: one plot per metric of the daemon's history, in the chosen window") {
  TopData data = fixture();
  setHistory(data, 1);
  ViewState s;
  s.tab = Tab::Graphs;
  s.graphsWindow = 1;
  auto view = buildTab(s, data, 100);
  CHECK(find(view, {"window 10m / 1s"}) >= 0);
  CHECK(find(view, {"peer_count (peers): now 1  min 0  max 1"}) >= 0);
  const int rate = find(view, {"bytes_in (bytes/s): now 2.0KB/s  min 512B/s  max 2.0KB/s"});
  REQUIRE(rate >= 0);
  CHECK(view.lines[size_t(rate) + 3].text == "   ▆█");  // bottom row: a gap, 6/8, full
  CHECK(view.lines[size_t(rate) + 3].tone == Tone::Plot);
  CHECK(find(view, {"loss_rate (fraction): no samples yet"}) >= 0);
  CHECK(find(view, {"packets_in (packets/s): now 2.5 packets/s"}) >= 0);
  data.history.unavailable("peer not tracked");
  CHECK(find(buildTab(s, data, 100), {"not available: peer not tracked"}) >= 0);
}

TEST_CASE("before the first answer: waiting, or why the daemon cannot be reached") {
  TopData data;
  auto view = show(Tab::Node, data);
  CHECK(find(view, {"Waiting for data..."}) >= 0);
  data.disconnected =
      "cannot connect to /tmp/x.sock: No such file or directory (is the FIPS daemon running?)";
  view = show(Tab::Peers, data);
  CHECK(view.lines[0].text == "  " + data.disconnected);
  CHECK(view.lines[0].tone == Tone::Alert);
  CHECK(find(view, {"Retrying every 2s; q quits."}) == 1);
  CHECK(find(view, {"Peers"}) == -1);
}

TEST_CASE("tab bar marks the active tab; status bar says connected or why not") {
  const TabBar bar = tabBar(Tab::Peers, "0.1.0");
  CHECK(bar.text.find(" fipstop 0.1.0 │ 1 Node  2 Peers  3 Transports") == 0);
  CHECK(bar.text.find("9 Graphs") != std::string::npos);
  CHECK(clipToWidth(bar.text.substr(bar.text.find("2 Peers")), bar.activeWidth) == "2 Peers");
  CHECK(bar.activeStart == displayWidth(" fipstop 0.1.0 │ 1 Node  "));

  TopData data = fixture();
  CHECK(statusBar(data, 400, 200).find(" Connected | Refresh: 2s | Updated: 0.4s ago | q quit") ==
        0);
  CHECK(statusBar(data, 400, 40) == " Connected | Refresh: 2s | Updated: 0.4s ago");
  data.disconnected = "the daemon closed the connection";
  CHECK(statusBar(data, 0, 200).find(" Disconnected: the daemon closed the connection |") == 0);
  CHECK(helpLines().size() > 5);
}

}  // namespace
}  // namespace fips::ctl::top
