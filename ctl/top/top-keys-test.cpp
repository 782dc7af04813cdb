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

}  // namespace
}  // namespace fips::ctl::top
