// SPDX-License-Identifier: MIT
// fipstop keys (see top-keys.h).
#include "ctl/top/top-keys.h"

#include <algorithm>
#include <curses.h>

namespace fips::ctl::top {

namespace {

constexpr int CTRL_C = 3;
constexpr int ESCAPE = 27;

int tabIndex(Tab tab) {
  return static_cast<int>(std::find(ALL_TABS.begin(), ALL_TABS.end(), tab) - ALL_TABS.begin());
}

void switchTo(ViewState& s, Tab tab) {
  if (tab == s.tab) return;
  s.tab = tab;
  s.selected = -1;
  s.detail = false;
  s.scroll = 0;
}

}  // namespace

bool hasTable(Tab tab) {
  return tab == Tab::Peers || tab == Tab::Transports;
}

Key keyFromCurses(int code, int& digitTab) {
  digitTab = -1;
  if (code >= '1' && code <= '9') {
    digitTab = code - '1';
    return Key::Tab1;
  }
  switch (code) {
    case 'q':
    case 'Q':
    case CTRL_C:
      return Key::Quit;
    case '\t':
      return Key::NextTab;
    case KEY_BTAB:
      return Key::PrevTab;
    case KEY_RIGHT:
      return Key::Right;
    case ' ':
      return Key::Space;
    case KEY_LEFT:
      return Key::Left;
    case KEY_UP:
      return Key::Up;
    case KEY_DOWN:
      return Key::Down;
    case KEY_PPAGE:
      return Key::PageUp;
    case KEY_NPAGE:
      return Key::PageDown;
    case KEY_HOME:
      return Key::Home;
    case KEY_END:
      return Key::End;
    case '\n':
    case '\r':
    case KEY_ENTER:
      return Key::Enter;
    case ESCAPE:
      return Key::Escape;
    case '?':
      return Key::Help;
    case 'g':
      return Key::Graphs;
    default:
      return Key::None;
  }
}

void handleKey(ViewState& s, Key key, int digitTab, int rows, int pageLines) {
  const int count = static_cast<int>(ALL_TABS.size());
  if (key == Key::Quit) {
    s.quit = true;
    return;
  }
  // The overlay is modal, as the reference's: only ?, Esc and quit act.
  if (s.help) {
    if (key == Key::Help || key == Key::Escape) s.help = false;
    return;
  }
  const bool table = hasTable(s.tab) && !s.detail;
  switch (key) {
    case Key::Help:
      s.help = true;
      break;
    case Key::NextTab:
      switchTo(s, ALL_TABS[(tabIndex(s.tab) + 1) % count]);
      break;
    case Key::PrevTab:
      switchTo(s, ALL_TABS[(tabIndex(s.tab) + count - 1) % count]);
      break;
    case Key::Right:
    case Key::Space:
      if (s.tab == Tab::Graphs) {
        s.graphsWindow = (s.graphsWindow + 1) % GRAPH_WINDOWS.size();
      } else if (key == Key::Right) {
        switchTo(s, ALL_TABS[(tabIndex(s.tab) + 1) % count]);
      }
      break;
    case Key::Left:
      if (s.tab == Tab::Graphs) {
        s.graphsWindow = (s.graphsWindow + GRAPH_WINDOWS.size() - 1) % GRAPH_WINDOWS.size();
      } else {
        switchTo(s, ALL_TABS[(tabIndex(s.tab) + count - 1) % count]);
      }
      break;
    case Key::Tab1:
      if (digitTab >= 0 && digitTab < count) switchTo(s, ALL_TABS[digitTab]);
      break;
    case Key::Graphs:
      switchTo(s, Tab::Graphs);
      break;
    case Key::Down:
      if (table && rows > 0) {
        s.selected = std::min(s.selected + 1, rows - 1);
      } else {
        ++s.scroll;
      }
      break;
    case Key::Up:
      if (table && rows > 0) {
        s.selected = std::max(s.selected - 1, 0);
      } else {
        s.scroll = std::max(s.scroll - 1, 0);
      }
      break;
    case Key::PageDown:
      s.scroll += std::max(pageLines, 1);
      break;
    case Key::PageUp:
      s.scroll = std::max(s.scroll - std::max(pageLines, 1), 0);
      break;
    case Key::Home:
      s.scroll = 0;
      break;
    case Key::End:
      s.scroll = 1 << 20;
      break;  // the screen clamps it to the content
    case Key::Enter:
      if (table && s.selected >= 0 && s.selected < rows) {
        s.detail = true;
        s.scroll = 0;
      }
      break;
    case Key::Escape:
      if (s.detail) {
        s.detail = false;
        s.scroll = 0;
      } else {
        s.selected = -1;
      }
      break;
    case Key::None:
    case Key::Quit:
      break;
  }
}

void fitToView(ViewState& s, const TabView& view, int contentLines) {
  if (s.selected >= view.selectableRows) s.selected = view.selectableRows - 1;
  if (s.selected < 0) s.detail = false;
  const int lines = static_cast<int>(view.lines.size());
  const int height = std::max(contentLines, 1);
  if (view.selectedLine >= 0) {
    if (view.selectedLine < s.scroll) s.scroll = view.selectedLine;
    if (view.selectedLine >= s.scroll + height) s.scroll = view.selectedLine - height + 1;
  }
  s.scroll = std::clamp(s.scroll, 0, std::max(lines - height, 0));
}

}  // namespace fips::ctl::top
