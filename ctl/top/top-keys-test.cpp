// SPDX-License-Identifier: MIT
// fipstop's keys: tab cycling, number keys, selection, detail, help, quit,
// and keeping the view's scroll and selection within the content.
// clang-format off
#include <doctest/doctest.h>
// After doctest: curses' timeout() macro would rename doctest's decorator.
#include <curses.h>
// clang-format on

#include "ctl/top/top-keys.h"

namespace fips::ctl::top {
namespace {

void press(ViewState& s, int code, int rows = 0) {
  int digit = -1;
  const Key key = keyFromCurses(code, digit);
  handleKey(s, key, digit, rows, 10);
}

TEST_CASE("Tab, Shift-Tab, arrows and number keys pick tabs in the reference's order") {
  ViewState s;
  press(s, '\t');
  CHECK(s.tab == Tab::Peers);
  press(s, KEY_RIGHT);
  CHECK(s.tab == Tab::Transports);
  press(s, KEY_BTAB);
  press(s, KEY_LEFT);
  CHECK(s.tab == Tab::Node);
  press(s, KEY_BTAB);
  CHECK(s.tab == Tab::Graphs);  // wraps
  press(s, '5');
  CHECK(s.tab == Tab::Tree);
  press(s, '6');
  CHECK(s.tab == Tab::Filters);
  press(s, '7');
  CHECK(s.tab == Tab::Performance);
  press(s, 'g');
  CHECK(s.tab == Tab::Graphs);
  press(s, '1');
  CHECK(s.tab == Tab::Node);
  CHECK(std::string(tabLabel(Tab::Filters)) == "Filters");
}

TEST_CASE("Graphs: Right/Space and Left cycle the time windows; Tab still leaves") {
  ViewState s;
  press(s, 'g');
  CHECK(s.graphsWindow == 0);
  press(s, KEY_RIGHT);
  CHECK(s.graphsWindow == 1);
  press(s, ' ');
  press(s, ' ');
  CHECK(std::string(GRAPH_WINDOWS[s.graphsWindow].label) == "24h / 1m");
  press(s, KEY_RIGHT);
  CHECK(s.graphsWindow == 0);  // wraps
  press(s, KEY_LEFT);
  CHECK(s.graphsWindow == 3);
  CHECK(s.tab == Tab::Graphs);
  press(s, '\t');
  CHECK(s.tab == Tab::Node);
  press(s, ' ');
  CHECK(s.tab == Tab::Node);  // Space does nothing elsewhere
}

TEST_CASE("q, Q and Ctrl-C quit") {
  for (int code : {int('q'), int('Q'), 3}) {
    ViewState s;
    press(s, code);
    CHECK(s.quit);
  }
}

TEST_CASE("table tabs: Up/Down select within the rows, Enter opens, Esc closes then deselects") {
  ViewState s;
  press(s, '2');
  press(s, KEY_DOWN, 2);
  CHECK(s.selected == 0);
  press(s, KEY_DOWN, 2);
  press(s, KEY_DOWN, 2);
  CHECK(s.selected == 1);
  press(s, KEY_UP, 2);
  CHECK(s.selected == 0);
  press(s, '\r', 2);
  CHECK(s.detail);
  press(s, 27, 2);
  CHECK_FALSE(s.detail);
  CHECK(s.selected == 0);
  press(s, 27, 2);
  CHECK(s.selected == -1);
  press(s, '\r', 2);
  CHECK_FALSE(s.detail);  // nothing selected
  press(s, KEY_DOWN, 2);
  press(s, '\t', 2);
  CHECK(s.selected == -1);  // a new tab starts unselected
}

TEST_CASE("scrolling tabs: Up/Down/PageDown/Home scroll; the help overlay is modal") {
  ViewState s;
  press(s, '5');
  press(s, KEY_DOWN);
  press(s, KEY_NPAGE);
  CHECK(s.scroll == 11);
  press(s, KEY_HOME);
  CHECK(s.scroll == 0);
  press(s, '?');
  CHECK(s.help);
  press(s, '\t');
  CHECK(s.tab == Tab::Tree);  // ignored behind the overlay
  press(s, '?');
  CHECK_FALSE(s.help);
  press(s, '?');
  press(s, 'q');
  CHECK(s.quit);  // quit works from the overlay
}

TEST_CASE("fitToView keeps scroll and selection inside the content") {
  TabView view;
  view.lines.resize(30);
  view.selectableRows = 3;
  view.selectedLine = 25;
  ViewState s;
  s.tab = Tab::Peers;
  s.selected = 5;
  fitToView(s, view, 10);
  CHECK(s.selected == 2);
  CHECK(s.scroll == 16);  // line 25 is the last one shown
  view.selectedLine = -1;
  s.scroll = 1000;
  fitToView(s, view, 10);
  CHECK(s.scroll == 20);
  view.selectableRows = 0;
  s.detail = true;
  fitToView(s, view, 10);
  CHECK(s.selected == -1);
  CHECK_FALSE(s.detail);  // the row is gone
}

TEST_CASE("Del is left to requestDisconnect; the confirmation takes only Y, N, Esc and quit") {
  ViewState s;
  s.tab = Tab::Peers;
  s.selected = 0;
  int digit = -1;
  CHECK(keyFromCurses(KEY_DC, digit) == Key::Delete);
  press(s, KEY_DC, 1);
  CHECK_FALSE(s.confirming);  // needs the data: requestDisconnect opens it
  s.confirming = true;
  s.confirm = {"npub1peer", "core-vm"};
  press(s, '\t', 1);
  press(s, '3', 1);
  CHECK(s.tab == Tab::Peers);  // ignored behind the modal
  press(s, 'n', 1);
  CHECK_FALSE(s.confirming);
  CHECK(s.disconnectNow.empty());
  s.confirming = true;
  press(s, 27, 1);
  CHECK_FALSE(s.confirming);
  s.confirming = true;
  press(s, 'Y', 1);
  CHECK_FALSE(s.confirming);
  CHECK(s.disconnectNow == "npub1peer");
  s.confirming = true;
  press(s, 'q', 1);
  CHECK(s.quit);
}

TEST_CASE("Performance: f moves the focus, s cycles the focused pane's column, S flips it") {
  ViewState s;
  press(s, '7');
  press(s, 's');
  press(s, 's');
  CHECK(s.linkSort.column == 2);
  press(s, 'S');
  CHECK(s.linkSort.descending);
  press(s, 's');
  CHECK(s.linkSort.column == 3);
  CHECK_FALSE(s.linkSort.descending);  // a new column starts ascending
  press(s, 'f');
  CHECK(s.focusedPane == 1);
  press(s, 's');
  CHECK(s.sessionSort.column == 1);
  CHECK(s.linkSort.column == 3);
  for (int i = 0; i < 5; ++i) press(s, 's');
  CHECK(s.sessionSort.column == 0);  // wraps over the six columns
  press(s, 'f');
  CHECK(s.focusedPane == 0);
}

TEST_CASE("Transports: Right/Space expand the selected row, Left collapses, e and c all") {
  ViewState s;
  press(s, '3');
  press(s, KEY_RIGHT, 2);
  CHECK(s.tab == Tab::Sessions);  // nothing selected: Right still moves on
  press(s, '3');
  press(s, KEY_DOWN, 2);
  press(s, KEY_RIGHT, 2);
  CHECK(s.tab == Tab::Transports);
  CHECK(s.expanded == std::set<int>{0});
  press(s, KEY_LEFT, 2);
  CHECK(s.expanded.empty());
  press(s, 'e', 2);
  CHECK(s.expanded == std::set<int>{0, 1});
  press(s, 'c', 2);
  CHECK(s.expanded.empty());
}

TEST_CASE(
    "Graphs: m cycles the modes, n/N the metric or the peer, Up/Down/Enter the by-peer list") {
  ViewState s;
  press(s, 'g');
  CHECK(historyQuery(s).mode == GraphsMode::Node);
  press(s, 'm');
  CHECK(s.graphsMode == GraphsMode::MetricByPeer);
  press(s, 'N');
  CHECK(std::string(PEER_GRAPH_METRICS[s.graphsMetric]) == "ecn_ce");
  press(s, 'n');
  press(s, 'n');
  CHECK(historyQuery(s).metric == 1);
  press(s, KEY_DOWN, 3);
  press(s, KEY_DOWN, 3);
  press(s, KEY_DOWN, 3);
  CHECK(s.graphsPeer == 2);
  CHECK(historyQuery(s).peer == 0);  // the selection does not change the query
  press(s, '\r', 3);
  CHECK(s.detail);
  press(s, 27, 3);
  CHECK_FALSE(s.detail);
  press(s, 's', 3);
  press(s, 'S', 3);
  CHECK(s.graphsPeerSort.column == 1);
  CHECK(s.graphsPeerSort.descending);
  press(s, 'm');
  CHECK(s.graphsMode == GraphsMode::PeerByMetric);
  s.graphsPeer = 0;
  press(s, 'n', 3);
  press(s, 'n', 3);
  press(s, 'n', 3);
  CHECK(s.graphsPeer == 0);  // wraps over the three peers
  press(s, 'N', 3);
  CHECK(historyQuery(s).peer == 2);
  CHECK(std::string(historyQuery(s).window.label) == "1m / 1s");
  press(s, 'm');
  CHECK(s.graphsMode == GraphsMode::Node);
  press(s, '1');
  CHECK(historyQuery(s).window.label == SPARKLINE_WINDOW.label);
}

TEST_CASE("f on a multi-pane tab focuses the next pane and scrolls to its title once") {
  TabView view;
  view.lines.resize(40);
  view.paneLines = {0, 12, 30};
  ViewState s;
  press(s, '8');
  press(s, 'f');
  CHECK(s.focusedPane == 1);
  fitToView(s, view, 10);
  CHECK(s.scroll == 12);
  CHECK_FALSE(s.paneJump);
  press(s, KEY_DOWN);
  fitToView(s, view, 10);
  CHECK(s.scroll == 13);  // Down still scrolls
  press(s, 'f');
  press(s, 'f');
  fitToView(s, view, 10);
  CHECK(s.focusedPane == 0);  // wrapped over the three panes
  CHECK(s.scroll == 0);
  press(s, '2');
  press(s, 'f');
  CHECK(s.focusedPane == 0);  // Peers has no panes
}

}  // namespace
}  // namespace fips::ctl::top
