// SPDX-License-Identifier: MIT
// fipstop's model from fixed snapshots: each tab's lines, the tab and
// status bars, and what shows before the daemon answers or when it is gone.
#include "ctl/top/tab-views.h"

#include <algorithm>
#include <cmath>

#include <capnp/message.h>

#include <doctest/doctest.h>

#include "ctl/test-snapshot.h"
#include "ctl/top/sparkline.h"
#include "ctl/top/top-test-util.h"

namespace fips::ctl::top {
namespace {

using namespace test;

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

TEST_CASE("Node tab: runtime, identity with the npub, state, root and the history rows") {
  TopData data = answeredFixture();
  setHistory(data);
  auto view = show(Tab::Node, data);
  CHECK(find(view, {"ver: 0.1.0", "pid: 4242", "uptime: 1h02m"}) >= 0);
  CHECK(find(view, {"npub:", SELF_NPUB}) >= 0);
  CHECK(find(view, {"node_addr:", "1b4788b7ab7a436a611fc59fb1e34c6e"}) >= 0);
  CHECK(find(view, {"state: running  tun: disabled  leaf: false"}) >= 0);
  CHECK(find(view, {"peers: 1", "links: 1", "transports: 1"}) >= 0);
  CHECK(find(view, {"root: 1b4788b7ab7a436a…", "depth 1"}) >= 0);
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
  TopData data = answeredFixture();
  data.history.unavailable("control request failed: method not implemented");
  auto view = show(Tab::Node, data);
  CHECK(find(view, {"not available: control request failed: method not implemented"}) >= 0);
}

TEST_CASE("Node tab: the root says so") {
  TopData data = answeredFixture();
  data.answers->snapshot.getTree().setIsRoot(true);
  CHECK(find(show(Tab::Node, data), {"root: I am the one who roots"}) >= 0);
}

TEST_CASE("Peers tab: a table row per peer with its link MMP, selectable, with a detail view") {
  TopData data = answeredFixture();
  ViewState wide;
  wide.tab = Tab::Peers;
  auto view = buildTab(wide, data, 160);
  CHECK(find(view, {"Peers (2)"}) >= 0);
  const int header = find(view, {"Name", "Npub", "Transport", "Dir", "SRTT", "Loss", "LQI",
                                 "Goodput", "Pkts Tx", "Pkts Rx", "Up"});
  REQUIRE(header >= 0);
  CHECK(view.lines[size_t(header)].tone == Tone::Header);
  // LQI = smoothed ETX x (1 + SRTT/100) = 2.0 x 1.125.
  const int row = find(view, {"core-vm", "npub180cvv07tjdr…", "udp/10.99.0.2:2121", "out", "12.5ms",
                              "0.125", "2.25", "2.50 KB/s", "1200", "1100", "1m30s"});
  CHECK(find(view, {"── Other ──"}) == header + 1);  // neither parent nor child
  CHECK(row == header + 2);
  // Not measured yet: dashes; no LQI sorts last.
  CHECK(find(view, {"npub1abc", "udp/10.99.0.3:2121  in   -       0.000  -     0 B/s"}) == row + 1);
  CHECK(view.selectableRows == 2);
  CHECK(view.selectedLine == -1);

  // Narrower than the table: the Npub column is left out, the rest fits 80.
  view = buildTab(wide, data, 80);
  CHECK(find(view, {"Name", "Transport", "Dir", "SRTT", "Loss", "LQI", "Goodput"}) == header);
  CHECK(find(view, {"Npub"}) == -1);
  CHECK(find(view, {"core-vm", "udp/10.99.0.2:2121", "out", "12.5ms", "2.25", "2.50 KB/s"}) == row);
  CHECK(find(view, {"npub180cvv07tjdr…"}) == -1);
  const std::string& rowText = view.lines[size_t(row)].text;
  CHECK(displayWidth(rowText.substr(0, rowText.find("2.50 KB/s"))) + 9 <= 80);

  view = show(Tab::Peers, data, 0);
  CHECK(view.selectedLine == row);
  CHECK(view.lines[size_t(row)].tone == Tone::Selected);

  view = show(Tab::Peers, data, 0, true);
  CHECK(find(view, {"Peer Detail: core-vm"}) >= 0);
  CHECK(find(view, {"npub", PEER_NPUB}) >= 0);
  CHECK(find(view, {"ipv6", "fd1b:4788:b7ab:7a43:6a61:1fc5:9fb1:e34c"}) >= 0);
  CHECK(find(view, {"address", "10.99.0.2:2121"}) >= 0);
  CHECK(find(view, {"srtt", "12.5ms"}) >= 0);
  CHECK(find(view, {"packets tx/rx", "1200 / 1100"}) >= 0);
  CHECK(find(view, {"delivery", "fwd 0.750, rev 0.875"}) >= 0);
  CHECK(find(view, {"link cost", "1.69"}) >= 0);
}

// Issue #7: the detail views at 80 columns cut a full npub's last character.
TEST_CASE("detail views: a full npub fits 80 columns whole") {
  TopData data = answeredFixture();
  // The session to node-c with a full npub (the snapshot's is short).
  data.answers->snapshot.getSessions().getSessions()[0].setNpub(PEER_NPUB);
  for (Tab tab : {Tab::Peers, Tab::Sessions}) {
    ViewState s;
    s.tab = tab;
    s.selected = 0;
    s.detail = true;
    const TabView view = buildTab(s, data, 80);
    const int line = find(view, {"npub", PEER_NPUB});
    REQUIRE(line >= 0);
    CHECK(displayWidth(view.lines[size_t(line)].text) <= 80);
    CHECK(clipToWidth(view.lines[size_t(line)].text, 80).ends_with(PEER_NPUB));
  }
}

TEST_CASE("Peers tab: the parent, then STP children, then the others (the reference's groups)") {
  TopData data = answeredFixture();
  auto snap = data.answers->snapshot;
  snap.getPeers()[1].setNodeAddr(bytes(ADDR_A));  // npub1abc is our parent
  auto view = show(Tab::Peers, data, 1);
  const int parent = find(view, {"── Parent ──"});
  REQUIRE(parent >= 0);
  CHECK(find(view, {"npub1abc", "10.99.0.3:2121"}) == parent + 1);
  CHECK(view.lines[size_t(parent)].tone == Tone::Dim);
  CHECK(find(view, {"── Other ──"}) == parent + 3);  // after a blank separator
  CHECK(find(view, {"core-vm", "12.5ms"}) == view.selectedLine);
  CHECK(view.selectedLine == parent + 4);
  CHECK(view.selectableRows == 2);  // labels and separators are not rows

  // core-vm's coordinates run through us: a child.
  auto treePeer = snap.getTree().getPeers()[1];
  snap.getPeers()[0].setNodeAddr(bytes(ADDR_C));
  treePeer.setHasCoords(true);
  auto coords = treePeer.initCoords(3);
  coords.set(0, bytes(ADDR_C));
  coords.set(1, bytes(ADDR_B));
  coords.set(2, bytes(ADDR_A));
  view = show(Tab::Peers, data);
  CHECK(find(view, {"── STP Children ──"}) == find(view, {"core-vm", "12.5ms"}) - 1);
  CHECK(find(view, {"── Other ──"}) == -1);

  // Del and the detail view name the row the cursor is on.
  ViewState s;
  s.tab = Tab::Peers;
  s.selected = 1;
  requestDisconnect(s, data);
  CHECK(s.confirm.name == "core-vm");
  s.detail = true;
  CHECK(find(buildTab(s, data, 100), {"Peer Detail: core-vm"}) >= 0);
}

TEST_CASE("Peers tab: Del asks before disconnecting the selected peer") {
  TopData data = answeredFixture();
  ViewState s;
  s.tab = Tab::Peers;
  requestDisconnect(s, data);
  CHECK_FALSE(s.confirming);  // no row selected
  s.selected = 0;
  s.detail = true;
  requestDisconnect(s, data);
  CHECK_FALSE(s.confirming);  // not from the detail view (the reference's)
  s.detail = false;
  requestDisconnect(s, data);
  REQUIRE(s.confirming);
  CHECK(s.confirm.npub == PEER_NPUB);
  s.selected = 1;  // no npub known: nothing to disconnect
  s.confirming = false;
  requestDisconnect(s, data);
  CHECK_FALSE(s.confirming);
  s.selected = 0;
  requestDisconnect(s, data);
  CHECK(s.confirm.name == "core-vm");
  const auto lines = confirmLines(s.confirm);
  CHECK(lines[0].text == " Disconnect peer?");
  CHECK(lines[0].tone == Tone::Alert);
  CHECK(lines[2].text == "  Peer: core-vm");
  CHECK(lines.back().text == "  [Y] disconnect    [N/Esc] cancel");
  // Issue #7: the README's rule, not "until you connect it or the daemon restarts".
  std::string said;
  for (const auto& l : lines) said += l.text + "\n";
  CHECK(said.find("restart") == std::string::npos);
  CHECK(
      said.find("until its link comes up\n  again (the peer dials us, or connect) and is lost.") !=
      std::string::npos);
  ViewState other;
  other.tab = Tab::Sessions;
  other.selected = 0;
  requestDisconnect(other, data);
  CHECK_FALSE(other.confirming);
  data.notice = "disconnected core-vm";
  CHECK(statusBar(ViewState{}, data, 0, 200).find("| disconnected core-vm") != std::string::npos);
}

TEST_CASE("Transports tab: collapsed at first; expanded rows list their links; detail lists them") {
  TopData data = answeredFixture();
  auto view = show(Tab::Transports, data);
  const int row =
      find(view, {"▸ udp/lan 10.99.0.1:2121", "up", "1 link", "12", "10", "1.2KB", "1000B"});
  REQUIRE(row >= 0);
  CHECK(find(view, {"└ 10.99.0.2:2121"}) == -1);
  CHECK(view.selectableRows == 1);
  ViewState s;
  s.tab = Tab::Transports;
  s.expanded = {0};
  view = buildTab(s, data, 100);
  CHECK(find(view, {"▾ udp/lan 10.99.0.1:2121"}) == row);
  // The link's peer by its display name (the alias), as on the Peers tab.
  CHECK(find(view, {"└ 10.99.0.2:2121", "connected", "core-vm"}) == row + 1);
  CHECK(view.selectableRows == 1);  // link rows are not selectable
  view = show(Tab::Transports, data, 0, true);
  CHECK(find(view, {"Transport Detail: udp/lan"}) >= 0);
  CHECK(find(view, {"Links (1)"}) >= 0);
  CHECK(find(view, {"10.99.0.2:2121", "core-vm", "out"}) >= 0);
  // A link whose peer is not (yet) in show peers: its short npub.
  data.answers->snapshot.getLinks()[0].setNpub("npub1other");
  view = buildTab(s, data, 100);
  CHECK(find(view, {"└ 10.99.0.2:2121", "connected", "npub1other"}) == row + 1);
}

TEST_CASE("Tree, Filters and Routing tabs") {
  TopData data = answeredFixture();
  auto tree = show(Tab::Tree, data);
  CHECK(find(tree, {"root:", HEX_A}) >= 0);
  CHECK(find(tree, {"root npub:   npub1root"}) == find(tree, {"root:", HEX_A}) + 1);
  CHECK(find(tree, {"parent:", "node-a"}) >= 0);
  CHECK(find(tree, {"coords:", "9a00112233445566… → 1b4788b7ab7a436a…"}) >= 0);
  CHECK(find(tree, {"declaration: seq 3, signed"}) >= 0);
  CHECK(find(tree, {"node-a", "1b4788b7ab7a436a…", "0", "1"}) >= 0);
  CHECK(find(tree, {"c0ffee00...", "(no announce yet)"}) >= 0);
  CHECK(find(tree, {"accepted", "6"}) >= 0);

  auto filters = show(Tab::Filters, data);
  CHECK(find(filters, {"sequence:", "4"}) >= 0);
  CHECK(find(filters, {"node-a", "25", "0.3%", "2"}) >= 0);
  CHECK(find(filters, {"c0ffee00...", "(no filter yet)"}) >= 0);

  auto routing = show(Tab::Routing, data);
  CHECK(find(routing, {"coord cache: 4  identity cache: 5  recent requests: 6"}) >= 0);
  CHECK(find(routing, {"pending TUN: 1 destinations, 3 packets"}) >= 0);
  CHECK(find(routing, {"c0ffee00...", "c0ffee0000000000…", "2", "3s"}) >= 0);
  CHECK(find(routing, {"node-c", "4", "in 8s", "yes"}) >= 0);
  CHECK(find(routing, {"forwarding.forwarded_packets", "11"}) >= 0);
  CHECK(find(routing, {"discovery.req_initiated", "2"}) >= 0);
  CHECK(find(routing, {"Coordinate Cache (1 of 50000, 0 expired, ttl 300s)"}) >= 0);
  CHECK(find(routing, {"c0ffee00...", "fdc0:ffee::", "1m01s", "1280"}) >= 0);
  data.answers->hasRouting = false;
  CHECK(find(show(Tab::Routing, data), {"not available from this daemon yet"}) >= 0);
}

TEST_CASE("multi-pane tabs: the focused pane's title is marked, the panes' lines listed") {
  TopData data = answeredFixture();
  ViewState s;
  s.tab = Tab::Routing;
  auto view = buildTab(s, data, 100);
  REQUIRE(view.paneLines.size() == 5);
  CHECK(view.lines[size_t(view.paneLines[0])].text == "▶Routing State");
  CHECK(view.lines[size_t(view.paneLines[2])].text == " Retries (1)");
  s.focusedPane = 7;  // wraps: the third pane
  view = buildTab(s, data, 100);
  CHECK(view.lines[size_t(view.paneLines[0])].text == " Routing State");
  CHECK(view.lines[size_t(view.paneLines[2])].text == "▶Retries (1)");
  s.tab = Tab::Tree;
  s.focusedPane = 1;
  CHECK(find(buildTab(s, data, 100), {"▶Tree Peers (2)"}) >= 0);
  s.tab = Tab::Peers;
  CHECK(buildTab(s, data, 100).paneLines.empty());  // a table tab
}

TEST_CASE("Sessions tab: a row per FSP session") {
  TopData data = answeredFixture();
  auto view = show(Tab::Sessions, data);
  CHECK(find(view, {"Sessions (3)"}) >= 0);
  CHECK(find(view, {"Name", "Remote Addr", "State", "Role", "Path MTU", "Last Activity"}) >= 0);
  CHECK(find(view, {"node-c", "9a00112233445566…", "established", "initiator", "1400", "10", "9",
                    "1000B", "900B", "2s ago"}) >= 0);
  CHECK(find(view, {"c0ffee00...", "initiating", "responder", "-", "3s ago"}) >= 0);
  CHECK(view.selectableRows == 2);
  view = show(Tab::Sessions, data, 1);
  CHECK(view.selectedLine == find(view, {"c0ffee00...", "initiating"}));
  view = show(Tab::Sessions, data, 0, true);
  CHECK(find(view, {"Session Detail: node-c"}) >= 0);
  CHECK(find(view, {"remote", HEX_B}) >= 0);
  CHECK(find(view, {"age", "2m05s"}) >= 0);
  CHECK(find(view, {"key epoch", "2"}) >= 0);
  CHECK(find(view, {"keys age", "1m00s"}) >= 0);
  view = show(Tab::Sessions, data, 1, true);
  CHECK(find(view, {"resends", "2"}) >= 0);
  CHECK(find(view, {"npub", "-"}) >= 0);
  data.answers->hasSessions = false;
  CHECK(find(show(Tab::Sessions, data), {"not available from this daemon yet"}) >= 0);
}

TEST_CASE("Performance tab: Link MMP per peer, Session MMP per session, sorted per pane") {
  TopData data = answeredFixture();
  auto view = show(Tab::Performance, data);
  CHECK(find(view, {"▶Link MMP (2 peers)"}) >= 0);
  CHECK(find(view, {"sort: name▲ srtt loss etx lqi gp"}) >= 0);
  CHECK(find(view, {"Peer", "Mode", "SRTT", "Loss", "ETX", "LQI", "Goodput", "Jitter", "Cost"}) >=
        0);
  // Smoothed loss and ETX where measured; trends as arrows.
  const int core = find(view, {"core-vm", "full", "12.5ms↑", "0.1250", "2.00", "2.25", "2.50 KB/s↓",
                               "1500us", "1.69"});
  const int light =
      find(view, {"npub1abc", "lightweight", "-", "0.0000", "1.00", "-", "0 B/s", "0us", "1.00"});
  REQUIRE(core >= 0);
  CHECK(light == core + 1);  // by name
  CHECK(find(view, {" Session MMP (2 sessions)"}) >= 0);
  CHECK(find(view, {"Session", "SRTT", "Loss", "ETX", "SQI", "MTU"}) >= 0);
  // Session MMP from show sessions' mmp block: SQI = smoothed ETX x (1 + SRTT/100).
  CHECK(find(view, {"node-c", "42.5ms", "0.2500", "2.00", "2.85", "1400"}) >
        find(view, {"c0ffee00...", "-", "-", "-", "-", "-"}));
  CHECK(view.selectableRows == 0);

  ViewState s;
  s.tab = Tab::Performance;
  s.linkSort = {1, true};  // srtt, descending: the unmeasured (+inf) first
  view = buildTab(s, data, 120);
  CHECK(find(view, {"sort: name srtt▼ loss"}) >= 0);
  CHECK(find(view, {"npub1abc", "lightweight"}) < find(view, {"core-vm", "12.5ms"}));
  s.linkSort = {5, false};  // goodput, ascending
  view = buildTab(s, data, 120);
  CHECK(find(view, {"gp▲"}) >= 0);
  CHECK(find(view, {"npub1abc", "lightweight"}) < find(view, {"core-vm", "12.5ms"}));
  s.linkSort = {2, true};  // loss, descending
  view = buildTab(s, data, 120);
  CHECK(find(view, {"core-vm", "12.5ms"}) < find(view, {"npub1abc", "lightweight"}));
  s.focusedPane = 1;
  s.sessionSort = {5, true};  // mtu, descending
  view = buildTab(s, data, 120);
  CHECK(find(view, {"▶Session MMP"}) >= 0);
  CHECK(find(view, {"▶Link MMP"}) == -1);
  CHECK(find(view, {"sort: name srtt loss etx sqi mtu▼"}) >= 0);
  CHECK(find(view, {"node-c", "1400"}) < find(view, {"c0ffee00...", "-", "-"}));
  s.sessionSort = {1, false};  // srtt, ascending: the unmeasured last
  view = buildTab(s, data, 120);
  CHECK(find(view, {"node-c", "42.5ms"}) < find(view, {"c0ffee00...", "-", "-"}));

  data.answers->hasSessions = false;
  CHECK(find(show(Tab::Performance, data), {"not available from this daemon yet"}) >= 0);
  data.answers->snapshot.initPeers(0);
  CHECK(find(show(Tab::Performance, data), {"No peers"}) >= 0);
}

TEST_CASE("Graphs tab: one plot per metric of the daemon's history, in the chosen window") {
  TopData data = answeredFixture();
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

// MetricByPeer: srtt_ms of two peers.
void setByPeer(TopData& data) {
  const double gap = std::nan("");
  data.graphPeers = {{"npub1a", "core-vm"}, {"npub1b", "alpha"}};
  data.byPeer = {{"core-vm", {"srtt_ms", "ms", 1, {gap, 10, 14, 12}}},
                 {"alpha", {"srtt_ms", "ms", 1, {30, 20}}}};
}

TEST_CASE("Graphs tab, MetricByPeer: a summary and sparkline per peer, sorted, Enter plots one") {
  TopData data = answeredFixture();
  setByPeer(data);
  ViewState s;
  s.tab = Tab::Graphs;
  s.graphsMode = GraphsMode::MetricByPeer;
  auto view = buildTab(s, data, 100);
  CHECK(find(view, {"srtt_ms by peer, window 1m / 1s"}) >= 0);
  CHECK(find(view, {"sort: name▲ min max last n"}) >= 0);
  const int alpha = find(view, {"alpha", "min 20", "max 30", "last 20", "n 2", "█▁"});
  const int core = find(view, {"core-vm", "min 10", "max 14", "last 12", "n 3", "▁█▅"});
  REQUIRE(alpha >= 0);
  CHECK(core == alpha + 1);
  CHECK(view.selectableRows == 2);
  CHECK(view.selectedLine == alpha);
  CHECK(view.lines[size_t(alpha)].tone == Tone::Selected);
  s.graphsPeerSort = {3, true};  // last, descending
  s.graphsPeer = 1;
  view = buildTab(s, data, 100);
  CHECK(find(view, {"core-vm", "last 12"}) == view.selectedLine);
  CHECK(find(view, {"alpha"}) < view.selectedLine);
  s.detail = true;
  view = buildTab(s, data, 100);
  CHECK(find(view, {"core-vm (ms): now 12  min 10  max 14"}) >= 0);
  CHECK(std::count_if(view.lines.begin(), view.lines.end(),
                      [](const Line& l) { return l.tone == Tone::Plot; }) == 10);
  data.byPeer.clear();
  s.detail = false;
  CHECK(find(buildTab(s, data, 100), {"no peer is tracked in the stats history yet"}) >= 0);
}

TEST_CASE("Graphs tab, PeerByMetric: the chosen peer's metrics stacked") {
  TopData data = answeredFixture();
  setHistory(data);
  data.historyPeer = "core-vm";
  data.graphPeers = {{"npub1a", "core-vm"}};
  ViewState s;
  s.tab = Tab::Graphs;
  s.graphsMode = GraphsMode::PeerByMetric;
  auto view = buildTab(s, data, 100);
  CHECK(find(view, {"Peer core-vm, window 1m / 1s (n/N: peer"}) >= 0);
  CHECK(find(view, {"bytes_in (bytes/s): now 2.0KB/s"}) >= 0);
  CHECK(view.selectableRows == 1);
  data.history.unavailable("no peer is tracked in the stats history yet");
  data.historyPeer.clear();
  view = buildTab(s, data, 100);
  CHECK(find(view, {"Peer -,"}) >= 0);
  CHECK(find(view, {"not available: no peer is tracked"}) >= 0);
}

TEST_CASE("formatThroughput: decimal units, three significant digits") {
  CHECK(formatThroughput(0) == "0 B/s");
  CHECK(formatThroughput(512) == "512 B/s");
  CHECK(formatThroughput(1500) == "1.50 KB/s");
  CHECK(formatThroughput(12'500'000) == "12.5 MB/s");
  CHECK(formatThroughput(3e9) == "3.00 GB/s");
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

// The label the bar marks active.
std::string activeLabel(const TabBar& bar) {
  size_t start = 0;  // the byte of column activeStart (every glyph is one column)
  for (size_t col = 0; col < bar.activeStart && start < bar.text.size(); ++col) {
    ++start;
    while (start < bar.text.size() && (static_cast<unsigned char>(bar.text[start]) & 0xc0) == 0x80)
      ++start;
  }
  return clipToWidth(bar.text.substr(start), bar.activeWidth);
}

TEST_CASE("tab bar: every tab at 80 columns, the active one's neighbours at 60") {
  // 100 columns: the full labels without the title.
  TabBar bar = tabBar(Tab::Routing, "0.1.0", 100);
  CHECK(bar.text ==
        " 1 Node  2 Peers  3 Transports  4 Sessions  5 Tree  6 Filters  7 Performance  8 Routing  "
        "9 Graphs");
  CHECK(activeLabel(bar) == "8 Routing");
  // 80 columns: every tab, abbreviated, whichever is active.
  for (Tab tab : ALL_TABS) {
    bar = tabBar(tab, "0.1.0", 80);
    CAPTURE(bar.text);
    CHECK(bar.text ==
          " 1 Node  2 Peers  3 Trans  4 Sess  5 Tree  6 Filt  7 Perf  8 Route  9 Graph");
    CHECK(activeLabel(bar).starts_with(std::to_string(static_cast<int>(tab) + 1) + " "));
  }
  // 60 columns: the tabs around the active one, ‹ › where the bar goes on.
  for (Tab tab : ALL_TABS) {
    bar = tabBar(tab, "0.1.0", 60);
    CAPTURE(bar.text);
    CHECK(displayWidth(bar.text) <= 60);
    CHECK(activeLabel(bar).starts_with(std::to_string(static_cast<int>(tab) + 1) + " "));
  }
  CHECK(tabBar(Tab::Node, "0.1.0", 60).text ==
        " 1 Node  2 Peers  3 Trans  4 Sess  5 Tree  6 Filt  7 Perf ›");
  CHECK(tabBar(Tab::Graphs, "0.1.0", 60).text ==
        " ‹ 3 Trans  4 Sess  5 Tree  6 Filt  7 Perf  8 Route  9 Graph");
  CHECK(tabBar(Tab::Tree, "0.1.0", 40).text == " ‹ 4 Sess  5 Tree  6 Filt  7 Perf ›");
}

TEST_CASE("tab bar marks the active tab; status bar says connected or why not") {
  const TabBar bar = tabBar(Tab::Peers, "0.1.0", 160);
  CHECK(bar.text.find(" fipstop 0.1.0 │ 1 Node  2 Peers  3 Transports") == 0);
  CHECK(bar.text.find("9 Graphs") != std::string::npos);
  CHECK(clipToWidth(bar.text.substr(bar.text.find("2 Peers")), bar.activeWidth) == "2 Peers");
  CHECK(bar.activeStart == displayWidth(" fipstop 0.1.0 │ 1 Node  "));

  TopData data = answeredFixture();
  ViewState s;
  CHECK(statusBar(s, data, 400, 200) ==
        " Connected | Refresh: 2s | Updated: 0.4s ago | 1-9 jump  q quit  Tab tabs  ? help");
  CHECK(statusBar(s, data, 400, 40) == " Connected | Refresh: 2s | Updated: 0.4s ago");
  s.tab = Tab::Peers;
  CHECK(statusBar(s, data, 0, 200)
            .ends_with("| ↑↓ select  Enter detail  Del disconnect  q quit  Tab tabs  ? help"));
  // 80 columns (the reference's footer): the tab's keys first, then the
  // global ones where they fit, "? help" kept last.
  CHECK(statusBar(s, data, 0, 80) ==
        " Connected | Refresh: 2s | Updated: 0.0s ago | ↑↓ select  Enter detail  ? help");
  s.detail = true;
  CHECK(statusBar(s, data, 0, 200).ends_with("| Esc back  q quit  Tab tabs  ? help"));
  s.confirming = true;
  CHECK(statusBar(s, data, 0, 200).ends_with("| Y disconnect  N/Esc cancel"));
  s = ViewState{};
  s.tab = Tab::Graphs;
  s.graphsMode = GraphsMode::MetricByPeer;
  CHECK(statusBar(s, data, 0, 200).find("m mode  n/N metric  ↑↓ select  Enter plot  s/S sort") !=
        std::string::npos);
  s.tab = Tab::Performance;
  CHECK(statusBar(s, data, 0, 200)
            .ends_with("| f pane  s/S sort  ↑↓ scroll  q quit  Tab tabs  ? help"));
  data.disconnected = "the daemon closed the connection";
  CHECK(statusBar(s, data, 0, 200).find(" Disconnected: the daemon closed the connection |") == 0);
  const auto help = helpLines(80);
  CHECK(help.size() <= 21);  // fits a 24-line terminal with the bars
  for (const Line& line : help) CHECK(displayWidth(line.text) < 80);
  CHECK(std::any_of(help.begin(), help.end(),
                    [](const Line& l) { return l.text.find("Del ") != std::string::npos; }));
}

}  // namespace
}  // namespace fips::ctl::top
