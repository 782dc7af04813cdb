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
  s.focusedPane = 0;
}

// The confirmation is modal: Y disconnects, N and Esc cancel.
void confirmKey(ViewState& s, Key key) {
  if (key == Key::Yes) {
    s.disconnectNow = s.confirm.npub;
    s.confirming = false;
  } else if (key == Key::Next || key == Key::Prev || key == Key::Escape) {
    s.confirming = false;
  }
}

// The sort the focused view's s / S act on, and its column count; nullptr
// on a tab without one.
SortState* focusedSort(ViewState& s, size_t& columns) {
  if (s.tab == Tab::Performance) {
    columns = s.focusedPane == 1 ? SESSION_SORT_LABELS.size() : LINK_SORT_LABELS.size();
    return s.focusedPane == 1 ? &s.sessionSort : &s.linkSort;
  }
  if (s.tab == Tab::Graphs && s.graphsMode == GraphsMode::MetricByPeer) {
    columns = GRAPHS_PEER_SORT_LABELS.size();
    return &s.graphsPeerSort;
  }
  return nullptr;
}

// The Graphs tab's own keys; false when `key` is not one of them.
bool graphsKey(ViewState& s, Key key, int rows) {
  const size_t windows = GRAPH_WINDOWS.size();
  const bool byPeer = s.graphsMode == GraphsMode::MetricByPeer;
  switch (key) {
    case Key::Right:
    case Key::Space:
      s.graphsWindow = (s.graphsWindow + 1) % windows;
      return true;
    case Key::Left:
      s.graphsWindow = (s.graphsWindow + windows - 1) % windows;
      return true;
    case Key::Mode:
      s.graphsMode = s.graphsMode == GraphsMode::Node           ? GraphsMode::MetricByPeer
                     : s.graphsMode == GraphsMode::MetricByPeer ? GraphsMode::PeerByMetric
                                                                : GraphsMode::Node;
      s.detail = false;
      s.scroll = 0;
      return true;
    case Key::Next:
    case Key::Prev:
      if (byPeer) {
        const size_t n = PEER_GRAPH_METRICS.size();
        s.graphsMetric = (s.graphsMetric + (key == Key::Next ? 1 : n - 1)) % n;
      } else if (s.graphsMode == GraphsMode::PeerByMetric && rows > 0) {
        const size_t n = static_cast<size_t>(rows);
        s.graphsPeer = (s.graphsPeer % n + (key == Key::Next ? 1 : n - 1)) % n;
      }
      return true;
    case Key::Down:
    case Key::Up:
      if (!byPeer || rows <= 0) return false;
      s.graphsPeer = static_cast<size_t>(
          std::clamp(static_cast<int>(s.graphsPeer) + (key == Key::Down ? 1 : -1), 0, rows - 1));
      return true;
    case Key::Enter:
      if (byPeer && rows > 0) s.detail = true;
      return true;
    default:
      return false;
  }
}

// The Transports tab's expand / collapse keys on the selected row; false
// when `key` is not one of them here.
bool transportsKey(ViewState& s, Key key, int rows) {
  switch (key) {
    case Key::ExpandAll:
      for (int i = 0; i < rows; ++i) s.expanded.insert(i);
      return true;
    case Key::CollapseAll:
      s.expanded.clear();
      return true;
    case Key::Right:
    case Key::Space:
      if (s.selected < 0 || s.detail) return false;
      s.expanded.insert(s.selected);
      return true;
    case Key::Left:
      if (s.selected < 0 || s.detail) return false;
      s.expanded.erase(s.selected);
      return true;
    default:
      return false;
  }
}

}  // namespace

bool hasTable(Tab tab) {
  return tab == Tab::Peers || tab == Tab::Transports || tab == Tab::Sessions;
}

bool hasPanes(Tab tab) {
  return tab == Tab::Tree || tab == Tab::Filters || tab == Tab::Performance || tab == Tab::Routing;
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
    case KEY_DC:
      return Key::Delete;
    case 'y':
    case 'Y':
      return Key::Yes;
    case 'n':
      return Key::Next;
    case 'N':
      return Key::Prev;
    case 's':
      return Key::Sort;
    case 'S':
      return Key::SortDir;
    case 'f':
      return Key::Focus;
    case 'm':
      return Key::Mode;
    case 'e':
      return Key::ExpandAll;
    case 'c':
      return Key::CollapseAll;
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
  if (s.confirming) {
    confirmKey(s, key);
    return;
  }
  // The overlay is modal, as the reference's: only ?, Esc and quit act.
  if (s.help) {
    if (key == Key::Help || key == Key::Escape) s.help = false;
    return;
  }
  if (s.tab == Tab::Graphs && graphsKey(s, key, rows)) return;
  if (s.tab == Tab::Transports && transportsKey(s, key, rows)) return;
  const bool table = hasTable(s.tab) && !s.detail;
  size_t sortColumns = 0;
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
      switchTo(s, ALL_TABS[(tabIndex(s.tab) + 1) % count]);
      break;
    case Key::Left:
      switchTo(s, ALL_TABS[(tabIndex(s.tab) + count - 1) % count]);
      break;
    case Key::Sort:
      if (SortState* sort = focusedSort(s, sortColumns)) {
        sort->column = (sort->column + 1) % sortColumns;
        sort->descending = false;
      }
      break;
    case Key::SortDir:
      if (SortState* sort = focusedSort(s, sortColumns)) sort->descending = !sort->descending;
      break;
    case Key::Focus:
      if (hasPanes(s.tab)) {
        // Performance has two panes; fitToView wraps the others' count.
        s.focusedPane = s.tab == Tab::Performance ? 1 - s.focusedPane : s.focusedPane + 1;
        s.paneJump = true;
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
    case Key::Space:
    case Key::Delete:
    case Key::Yes:
    case Key::Next:
    case Key::Prev:
    case Key::Mode:
    case Key::ExpandAll:
    case Key::CollapseAll:
    case Key::None:
    case Key::Quit:
      break;
  }
}

void fitToView(ViewState& s, const TabView& view, int contentLines) {
  if (s.selected >= view.selectableRows) s.selected = view.selectableRows - 1;
  if (hasTable(s.tab) && s.selected < 0) s.detail = false;
  const int lines = static_cast<int>(view.lines.size());
  const int height = std::max(contentLines, 1);
  if (!view.paneLines.empty()) {
    s.focusedPane %= static_cast<int>(view.paneLines.size());
    if (s.paneJump) s.scroll = view.paneLines[static_cast<size_t>(s.focusedPane)];
  }
  s.paneJump = false;
  if (view.selectedLine >= 0) {
    if (view.selectedLine < s.scroll) s.scroll = view.selectedLine;
    if (view.selectedLine >= s.scroll + height) s.scroll = view.selectedLine - height + 1;
  }
  s.scroll = std::clamp(s.scroll, 0, std::max(lines - height, 0));
}

}  // namespace fips::ctl::top
