// SPDX-License-Identifier: MIT
// Issue #7: every fipstop tab at 80 columns from a snapshot with
// realistic long values (IPv6 transports, large counters, long names,
// deep coordinates): no line wider than the screen, the key columns
// whole; and the fitting helpers (text-fit.h, fitTable).
#include <algorithm>
#include <cmath>

#include <capnp/message.h>

#include <doctest/doctest.h>

#include "ctl/test-snapshot.h"
#include "ctl/top/sparkline.h"
#include "ctl/top/tab-views.h"
#include "ctl/top/text-fit.h"
#include "ctl/top/top-test-util.h"

namespace fips::ctl::top {
namespace {

using namespace test;

constexpr uint8_t ADDR_D[16] = {0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7,
                                0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf};
constexpr uint8_t ADDR_E[16] = {0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7,
                                0xe8, 0xe9, 0xea, 0xeb, 0xec, 0xed, 0xee, 0xef};

// Depth-5 coordinates: self (or the destination), three hops, the root.
void deepCoords(capnp::List<capnp::Data>::Builder coords) {
  coords.set(0, bytes(ADDR_B));
  coords.set(1, bytes(ADDR_C));
  coords.set(2, bytes(ADDR_D));
  coords.set(3, bytes(ADDR_E));
  coords.set(4, bytes(ADDR_A));
}

// The shared snapshot with the values a busy node shows.
TopData wideFixture() {
  TopData data = answeredFixture();
  Answers& a = *data.answers;
  auto snap = a.snapshot;
  auto p = snap.getPeers()[0];
  p.setDisplayName("core-vm-frankfurt-01");
  p.setTransportAddr("[2001:db8:100::2]:2121");
  p.setAuthenticatedAtMs(NOW_MS - 3 * 86'400'000ull);
  p.getStats().setPacketsSent(123'456'789);
  p.getStats().setPacketsRecv(98'765'432);
  p.getMmp().setSrttMs(123.4);
  p.getMmp().setGoodputBps(12.5e6);
  p.getMmp().setJitterUs(123'456);
  auto t = snap.getTransports()[0];
  t.getLocalAddrs().set(0, "[2001:db8:100::1]:2121");
  t.setPacketsSent(12'345'678);
  t.setPacketsRecv(23'456'789);
  t.setBytesSent(1'500'000'000);
  t.setBytesRecv(2'500'000'000);
  t.setKernelDrops(12'345);
  snap.getLinks()[0].setRemoteAddr("[2001:db8:100::2]:2121");
  auto s = snap.getSessions().getSessions()[0];
  s.setDisplayName("node-c-amsterdam-02");
  s.setPacketsSent(12'345'678);
  s.setPacketsRecv(23'456'789);
  s.setBytesSent(1'500'000'000);
  s.setBytesRecv(2'500'000'000);
  s.setLastActivityMs(NOW_MS - 3'720'000);
  auto tree = snap.getTree();
  tree.setRootNpub(PEER_NPUB);
  tree.setDepth(4);
  deepCoords(tree.initMyCoords(5));
  auto tp = tree.getPeers()[0];
  tp.setDisplayName("node-a-with-a-long-name");
  deepCoords(tp.initCoords(5));
  tp.setDepth(4);
  auto e = snap.getCache().getEntries()[0];
  e.setIpv6(bytes(IPV6_A));
  deepCoords(e.initCoords(5));
  data.disconnected =
      "cannot connect to /run/fips/control.sock: No such file or directory (is the FIPS daemon "
      "running?)";
  return data;
}

// A Graphs history with every node metric's long unit.
void setHistory(TopData& data) {
  capnp::MallocMessageBuilder msg;
  auto list = msg.initRoot<schema::StatsAllHistoryResult>().initSeries(2);
  const char* metrics[] = {"packets_in", "bytes_out"};
  const char* units[] = {"packets/s", "bytes/s"};
  for (unsigned i = 0; i < 2; ++i) {
    list[i].setMetric(metrics[i]);
    list[i].setUnit(units[i]);
    list[i].setGranularitySeconds(1);
    auto v = list[i].initValues(90);
    for (unsigned k = 0; k < 90; ++k) v.set(k, 1234567.5 + k);
  }
  data.history.set(list.asReader(), GRAPH_WINDOWS[3]);
  data.historyPeer =
      "core-vm-frankfurt-01 (npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsgyd5dy)";
  data.graphPeers = {{"npub1a", "core-vm-frankfurt-01"}};
  data.byPeer = {{"core-vm-frankfurt-01", {"packets_out", "packets/s", 1, {1e6, 2e6, 1.5e6}}}};
}

// Every line of `view` within `width` columns.
void checkFits(const std::vector<Line>& lines, size_t width) {
  for (const Line& line : lines) {
    CAPTURE(line.text);
    CHECK(displayWidth(line.text) <= width);
  }
}

// `tab` at 80 columns, checked to fit.
TabView at80(const TopData& data, ViewState s) {
  TabView view = buildTab(s, data, 80);
  checkFits(view.lines, 80);
  return view;
}

ViewState on(Tab tab) {
  ViewState s;
  s.tab = tab;
  return s;
}

TEST_CASE("every tab, detail, expanded row and Graphs mode fits 80 columns") {
  TopData data = wideFixture();
  setHistory(data);
  for (Tab tab : ALL_TABS) {
    CAPTURE(static_cast<int>(tab));
    ViewState s = on(tab);
    s.expanded = {0};
    at80(data, s);
    s.selected = 0;
    at80(data, s);
    s.detail = true;
    at80(data, s);
  }
  for (GraphsMode mode : {GraphsMode::Node, GraphsMode::MetricByPeer, GraphsMode::PeerByMetric}) {
    ViewState s = on(Tab::Graphs);
    s.graphsMode = mode;
    for (size_t w = 0; w < GRAPH_WINDOWS.size(); ++w) {
      s.graphsWindow = w;
      at80(data, s);
    }
    s.detail = true;
    at80(data, s);
  }
  data.everConnected = false;  // the wrapped reason before the first answer
  const TabView waiting = at80(data, on(Tab::Node));
  CHECK(waiting.lines[0].text ==
        "  cannot connect to /run/fips/control.sock: No such file or directory (is the");
  CHECK(waiting.lines[1].text == "  FIPS daemon running?)");
}

TEST_CASE("80 columns: Peers drops Npub, Up, then the packet counts, never cuts one") {
  TopData data = wideFixture();
  TabView view = at80(data, on(Tab::Peers));
  const int header = find(view, {"Name", "Transport", "Dir", "SRTT", "Loss", "LQI", "Goodput"});
  REQUIRE(header >= 0);
  CHECK(find(view, {"Npub"}) == -1);
  CHECK(find(view, {"Pkts"}) == -1);
  CHECK(find(view, {" Up"}) == -1);
  // The name to 16 columns, the IPv6 transport elided in the middle.
  CHECK(find(view, {"core-vm-frankfu…  udp/[2001:d",
                    ":2121  out  123.4ms  0.125  4.47  12.5 MB/s"}) == header + 2);
  // Wider: the packet counts come back whole before Up and Npub.
  view = buildTab(on(Tab::Peers), data, 120);
  CHECK(find(view, {"Pkts Tx", "Pkts Rx"}) == header);
  CHECK(find(view, {"udp/[2001:db8:100::2]:2121", "123456789", "98765432"}) == header + 2);
  CHECK(find(view, {"Npub"}) == -1);
  CHECK(find(buildTab(on(Tab::Peers), data, 160), {"Npub", "Pkts Rx", "Up"}) == header);
}

TEST_CASE("80 columns: Transports keeps the byte counts and drops of an expanded row") {
  TopData data = wideFixture();
  ViewState s = on(Tab::Transports);
  s.expanded = {0};
  const TabView view = at80(data, s);
  const int header = find(view, {"Transport / Link", "State", "Peer", "Tx", "Rx", "Drops"});
  REQUIRE(header >= 0);
  CHECK(find(view, {"Pkts"}) == -1);
  CHECK(find(view, {"▾ udp/lan", "up", "1 link", "1.40GB", "2.33GB", "12345"}) == header + 1);
  CHECK(find(view, {"└ [2001:db8:100::2]:2121", "connected", "core-vm-frankfu…"}) == header + 2);
}

TEST_CASE("80 columns: Sessions keeps Last Activity (the reference's columns)") {
  TopData data = wideFixture();
  const TabView view = at80(data, on(Tab::Sessions));
  const int header =
      find(view, {"Name", "Remote Addr", "State", "Role", "Path MTU", "Last Activity"});
  REQUIRE(header >= 0);
  CHECK(find(view, {"Pkts"}) == -1);
  CHECK(find(view, {"node-c-amsterda…", "9a001122", "established", "initiator", "1400",
                    "1h02m ago"}) == header + 1);
}

TEST_CASE("80 columns: Tree wraps our coordinates and elides a peer's between hops") {
  TopData data = wideFixture();
  const TabView view = at80(data, on(Tab::Tree));
  CHECK(find(view, {"root npub:   ", PEER_NPUB}) >= 0);
  const int coords = find(view, {"coords:      9a00112233445566… → c0ffee0000000000…"});
  REQUIRE(coords >= 0);
  CHECK(view.lines[size_t(coords) + 1].text ==
        "               e0e1e2e3e4e5e6e7… → 1b4788b7ab7a436a…");
  CHECK(find(view, {"Name", "Node addr", "Depth", "Distance", "Coords"}) >= 0);
  CHECK(find(view, {"node-a-with-a-l…", "4", "1", "9a001122… → … → 1b4788b7…"}) >= 0);
}

TEST_CASE("80 columns: Routing's cache, Performance's Link MMP, Graphs' titles") {
  TopData data = wideFixture();
  setHistory(data);
  TabView view = at80(data, on(Tab::Routing));
  CHECK(find(view, {"Name", "IPv6", "Depth", "Age", "Path MTU", "Coords"}) >= 0);
  CHECK(find(view, {"c0ffee00...", "fd1b:", "…", "e34c", "1m01s", "1280",
                    "9a001122… → … → 1b4788b7…"}) >= 0);
  view = at80(data, on(Tab::Performance));
  CHECK(find(view, {"Peer", "SRTT", "Loss", "ETX", "LQI", "Goodput", "Jitter", "Cost"}) >= 0);
  CHECK(find(view, {"Mode"}) == -1);
  CHECK(find(view, {"core-vm-frankfu…", "123.4ms↑", "0.1250", "4.47", "12.5 MB/s↓", "123456us",
                    "1.69"}) >= 0);
  ViewState s = on(Tab::Graphs);
  view = at80(data, s);
  CHECK(find(view, {" Node metrics, window 1m / 1s"}) == 0);
  // The unit stays in the parentheses when the values with it do not fit.
  CHECK(find(view, {"packets_in (packets/s): now 1234656.5  min 1234567.5  max 1234656.5"}) >= 0);
  s.graphsMode = GraphsMode::PeerByMetric;
  view = at80(data, s);
  CHECK(view.lines[0].text.starts_with(" Peer core-vm-frankfurt-01 (npub180"));
  CHECK(view.lines[0].text.ends_with("…, window 1m / 1s (n/N: peer, m: mode)"));
}

TEST_CASE("status bar and help: shortened at a word boundary, wrapped below 80 columns") {
  TopData data = wideFixture();
  ViewState s = on(Tab::Peers);
  // Disconnected: the refresh interval goes, the reason ends in "…".
  std::string bar = statusBar(s, data, 400, 79);
  CHECK(displayWidth(bar) <= 79);
  CHECK(bar.starts_with(" Disconnected: cannot connect to /run/fips/… | Updated: 0.4s ago |"));
  CHECK(bar.ends_with("? help"));
  CHECK(statusBar(s, data, 400, 200)
            .starts_with(" Disconnected: " + data.disconnected + " | Refresh: 2s"));
  data.disconnected.clear();
  data.notice = "disconnect core-vm-frankfurt-01 failed: control request failed: peer not found";
  bar = statusBar(s, data, 0, 79);
  CHECK(displayWidth(bar) <= 79);
  CHECK(bar == " Connected | Refresh: 2s | Updated: 0.0s ago | disconnect core-vm-fra… | ? help");
  for (size_t width : {80u, 60u, 40u}) {
    CAPTURE(width);
    const auto help = helpLines(width);
    for (const Line& line : help) {
      CAPTURE(line.text);
      CHECK(displayWidth(line.text) < width);
    }
  }
  CHECK(helpLines(80).size() <= 21);  // fits 80x24 with the bars
  const auto help = helpLines(60);    // descriptions in 39 columns
  const auto tab = std::find_if(help.begin(), help.end(), [](const Line& l) {
    return l.text.starts_with("  Tab, Shift-Tab    next / previous tab;");
  });
  REQUIRE(tab != help.end());
  CHECK((tab + 1)->text == "                    where unused");
}

TEST_CASE("text fitting: ellipsis at the end, the middle, between hops, at a word") {
  CHECK(elideEnd("core-vm", 7) == "core-vm");
  CHECK(elideEnd("core-vm-frankfurt", 8) == "core-vm…");
  CHECK(elideEnd("abc", 0) == "");
  CHECK(elideMiddle("fd1b:4788:b7ab:7a43:6a61:1fc5:9fb1:e34c", 12) == "fd1b:4…:e34c");
  CHECK(elideMiddle("abcdef", 6) == "abcdef");
  const std::string hops = "a1… → b2… → c3… → d4… → r5…";
  CHECK(elideCoords(hops, 100) == hops);
  CHECK(elideCoords(hops, 21) == "a1… → … → d4… → r5…");
  CHECK(elideCoords(hops, 15) == "a1… → … → r5…");
  CHECK(elideCoords(hops, 7) == "… → r5…");
  CHECK(displayWidth(elideCoords(hops, 4)) == 4);
  CHECK(shortenAtWord("Node metrics, window 1m / 1s (Left/Right: window)", 30) ==
        "Node metrics, window 1m / 1s…");
  CHECK(shortenAtWord("Node metrics, window", 15) == "Node metrics…");
  CHECK(shortenAtWord("abcdefghijkl", 6) == "abcde…");
  CHECK(shortenAtWord("cannot connect to /run/fips/control.sock", 30) ==
        "cannot connect to /run/fips/…");
  CHECK(wrapWords("  one two three four", 10, 4) ==
        std::vector<std::string>{"  one two", "    three", "    four"});
  CHECK(wrapWords("abcdefghij", 4, 0) == std::vector<std::string>{"abcd", "efgh", "ij"});
  CHECK(wrapWords("", 10, 2) == std::vector<std::string>{""});
}

// The columns appendTable draws `rows` in: the leading space included.
size_t tableWidth(const std::vector<TableRow>& rows) {
  size_t width = 0;
  for (size_t w : columnWidths(rows)) width += w + 2;
  return width;
}

TEST_CASE("fitTable: narrow when that is enough, else drop the highest rank, together") {
  const std::vector<TableRow> rows{{{"Name", "Addr", "A", "B", "C"}},
                                   {{"── a group label ──"}, false},
                                   {{"a-very-long-name", "10.0.0.1:2121", "1", "2", "3"}}};
  // Addr narrows rather than lose A and B (rank 2).
  const std::vector<ColumnFit> fit{{0, 8}, {0, 0, 6, elideMiddle, 2}, {2}, {2}, {1}};
  // Name cut to 8 always; the label row keeps its text whole.
  auto fitted = fitTable(rows, fit, 200);
  CHECK(fitted[2].cells == std::vector<std::string>{"a-very-…", "10.0.0.1:2121", "1", "2", "3"});
  CHECK(fitted[1].cells == std::vector<std::string>{"── a group label ──"});
  const size_t full = tableWidth(fitted);
  // Two columns too many: Addr narrows.
  fitted = fitTable(rows, fit, full - 2);
  CHECK(fitted[2].cells == std::vector<std::string>{"a-very-…", "10.0.…:2121", "1", "2", "3"});
  CHECK(tableWidth(fitted) <= full - 2);
  // More than Addr can give: A and B (rank 2) go together; then Addr
  // narrows rather than lose C (rank 1).
  fitted = fitTable(rows, fit, full - 8);
  CHECK(fitted[0].cells == std::vector<std::string>{"Name", "Addr", "C"});
  CHECK(fitted[2].cells == std::vector<std::string>{"a-very-…", "10.0.…:2121", "3"});
  CHECK(tableWidth(fitted) == full - 8);
  // Then C; at last Addr at its minimum, however narrow the screen.
  fitted = fitTable(rows, fit, 10);
  CHECK(fitted[0].cells == std::vector<std::string>{"Name", "Addr"});
  CHECK(fitted[2].cells == std::vector<std::string>{"a-very-…", "10.…21"});
}

}  // namespace
}  // namespace fips::ctl::top
