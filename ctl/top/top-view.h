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

// The operator's position in the UI, changed only by keys (top-keys.h).
struct ViewState {
  Tab tab = Tab::Node;
  int selected = -1;        // selected table row on Peers/Transports, -1 none
  bool detail = false;      // Enter on a selected row: its detail view
  int scroll = 0;           // first content line shown
  bool help = false;        // the key overlay
  size_t graphsWindow = 0;  // index into GRAPH_WINDOWS
  bool quit = false;
};

}  // namespace fips::ctl::top
