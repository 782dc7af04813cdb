// SPDX-License-Identifier: MIT
// fipstop's screen model: the tabs (the reference's cycle order without
// Gateway, which belongs to fips-gateway), what the operator has selected,
// and the text lines a tab shows. The model functions (tab-views.h) turn
// the daemon's answers into these lines; top-screen.h only draws them, so
// everything the operator reads is unit-tested without a terminal.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace fips::ctl::top {

// The reference's tabs in its cycle order (docs/reference/cli-fipstop.md).
enum class Tab { Node, Peers, Transports, Sessions, Tree, Filters, Performance, Routing, Graphs };

inline constexpr std::array<Tab, 9> ALL_TABS = {Tab::Node,        Tab::Peers,   Tab::Transports,
                                                Tab::Sessions,    Tab::Tree,    Tab::Filters,
                                                Tab::Performance, Tab::Routing, Tab::Graphs};

// "Node", "Peers", ... "Filters" (bloom), "Performance" (MMP).
const char* tabLabel(Tab tab);

// How a line is drawn; the screen maps each to a colour/attribute.
enum class Tone { Normal, Title, Header, Label, Dim, Selected, Alert, Plot };

// One screen line. `text` is UTF-8 of narrow glyphs; the screen clips it.
struct Line {
  std::string text;
  Tone tone = Tone::Normal;
};

// What a tab shows: lines, and for table tabs how many rows can be
// selected and which line holds the selected one (-1: none).
struct TabView {
  std::vector<Line> lines;
  int selectableRows = 0;
  int selectedLine = -1;
  // Multi-pane tabs (Tree, Filters, Performance, Routing): the line of
  // each pane's title, top to bottom (f moves the focus and the view to
  // the next).
  std::vector<int> paneLines;
};

// A time window of the history query (window and granularity in the
// daemon's syntax).
struct HistoryWindow {
  const char* label;
  const char* window;
  const char* granularity;
};

// The Graphs tab's windows, Right/Space cycles them (the reference's).
inline constexpr std::array<HistoryWindow, 4> GRAPH_WINDOWS = {{
    {"1m / 1s", "1m", "1s"},
    {"10m / 1s", "10m", "1s"},
    {"1h / 1s", "1h", "1s"},
    {"24h / 1m", "24h", "1m"},
}};

// The window the Node tab's sparklines show (one sample a second).
inline constexpr HistoryWindow SPARKLINE_WINDOW = {"2m / 1s", "2m", "1s"};

// A table's sort: the column index into its labels and the direction
// (s cycles the column and starts ascending, S flips the direction).
struct SortState {
  size_t column = 0;
  bool descending = false;
};

// The Performance tab's sortable columns (the reference's Link and Session
// MMP panes), and the Graphs by-peer summary's.
inline constexpr std::array<const char*, 6> LINK_SORT_LABELS = {"name", "srtt", "loss",
                                                                "etx",  "lqi",  "gp"};
inline constexpr std::array<const char*, 6> SESSION_SORT_LABELS = {"name", "srtt", "loss",
                                                                   "etx",  "sqi",  "mtu"};
inline constexpr std::array<const char*, 5> GRAPHS_PEER_SORT_LABELS = {"name", "min", "max", "last",
                                                                       "n"};

// The Graphs tab's modes (m cycles them, as the reference's): the node's
// metrics stacked; one per-peer metric across every peer; every per-peer
// metric of one peer.
enum class GraphsMode { Node, MetricByPeer, PeerByMetric };

// The per-peer metrics of the stats history, in the reference's order
// (MetricByPeer's n/N cycles them).
inline constexpr std::array<const char*, 7> PEER_GRAPH_METRICS = {
    "srtt_ms", "loss_rate", "bytes_in", "bytes_out", "packets_in", "packets_out", "ecn_ce"};

// What history the screen needs: the Node tab's sparklines (node metrics
// over SPARKLINE_WINDOW) or the Graphs tab's mode in its window.
struct HistoryQuery {
  HistoryWindow window;
  GraphsMode mode = GraphsMode::Node;
  size_t metric = 0;  // MetricByPeer: index into PEER_GRAPH_METRICS
  size_t peer = 0;    // PeerByMetric: index into the tracked peers
  bool operator==(const HistoryQuery& o) const {
    return window.label == o.window.label && mode == o.mode && metric == o.metric && peer == o.peer;
  }
};

// The Del confirmation on the Peers tab: the peer it would disconnect.
struct DisconnectConfirm {
  std::string npub;
  std::string name;
};

// The operator's position in the UI, changed only by keys (top-keys.h).
struct ViewState {
  Tab tab = Tab::Node;
  int selected = -1;        // selected table row on Peers/Transports, -1 none
  bool detail = false;      // Enter on a selected row: its detail view
  int scroll = 0;           // first content line shown
  bool help = false;        // the key overlay
  size_t graphsWindow = 0;  // index into GRAPH_WINDOWS
  bool quit = false;
  int focusedPane = 0;    // multi-pane tabs (f); Performance: 0 Link, 1 Session MMP
  bool paneJump = false;  // f was pressed: scroll to the focused pane's title
  SortState linkSort;     // Performance's Link MMP pane
  SortState sessionSort;  // Performance's Session MMP pane
  GraphsMode graphsMode = GraphsMode::Node;
  size_t graphsMetric = 0;   // MetricByPeer: index into PEER_GRAPH_METRICS
  size_t graphsPeer = 0;     // PeerByMetric: the peer; MetricByPeer: the selected row
  SortState graphsPeerSort;  // MetricByPeer's summary list
  // Transports: the rows whose links are shown (Right/Space on the
  // selected row or e: all; Left or c collapse), collapsed at start.
  std::set<int> expanded;
  // Del on a selected peer opens this modal; Y moves its npub to
  // disconnectNow (main sends it), N or Esc closes it.
  bool confirming = false;
  DisconnectConfirm confirm;
  std::string disconnectNow;
};

// The history `state` shows.
inline HistoryQuery historyQuery(const ViewState& state) {
  if (state.tab != Tab::Graphs) return {SPARKLINE_WINDOW};
  const GraphsMode mode = state.graphsMode;
  return {GRAPH_WINDOWS[state.graphsWindow % GRAPH_WINDOWS.size()], mode,
          mode == GraphsMode::MetricByPeer ? state.graphsMetric % PEER_GRAPH_METRICS.size() : 0,
          mode == GraphsMode::PeerByMetric ? state.graphsPeer : 0};
}

}  // namespace fips::ctl::top
