// SPDX-License-Identifier: MIT
// fipstop's keys (the reference's global, table and Graphs keys, plus
// number keys, and Left/Right to pick a tab outside Graphs): what a key
// does to the ViewState. Pure; the curses key codes are mapped here so the
// mapping is tested too.
#pragma once

#include "ctl/top/top-view.h"

namespace fips::ctl::top {

enum class Key {
  None,
  Quit,     // q, Q, Ctrl-C
  NextTab,  // Tab
  PrevTab,  // Shift-Tab
  Right,    // Right: next Graphs window, else next tab
  Left,     // Left: previous Graphs window, else previous tab
  Space,    // next Graphs window
  Up,
  Down,
  PageUp,
  PageDown,
  Home,
  End,
  Enter,        // open the selected row's detail
  Escape,       // close the detail, else deselect
  Help,         // ?
  Graphs,       // g
  Tab1,         // 1..9: that tab, in cycle order
  Delete,       // Del: disconnect the selected peer (after Y)
  Yes,          // y, Y: confirm
  Next,         // n: next Graphs selector; No in the confirmation
  Prev,         // N: previous Graphs selector; No in the confirmation
  Sort,         // s: next sort column
  SortDir,      // S: flip the sort direction
  Focus,        // f: next pane (Performance)
  Mode,         // m: next Graphs mode
  ExpandAll,    // e: every transport's links
  CollapseAll,  // c: no transport's links
};

// A curses key code (getch) as a Key; `digitTab` gets 0..8 for '1'..'9'.
Key keyFromCurses(int code, int& digitTab);

// Applies `key` to `state`. `rows` is the number of selectable rows on the
// current tab (on Graphs in MetricByPeer mode: the peers listed),
// `pageLines` the content height (for PageUp/PageDown). Key::Delete only
// opens the confirmation through requestDisconnect (tab-views.h), which
// needs the data; here it does nothing. While the confirmation is open
// only Y (disconnectNow gets the npub), N, Esc and quit act.
void handleKey(ViewState& state, Key key, int digitTab, int rows, int pageLines);

// True for tabs whose Up/Down select a table row (Peers, Transports,
// Sessions: the reference's table tabs without Gateway).
bool hasTable(Tab tab);

// True for the multi-pane tabs whose f moves the focus (Tree, Filters,
// Performance, Routing).
bool hasPanes(Tab tab);

// Keeps `state` within what `view` shows on `contentLines` lines: the
// selection within the table's rows (cleared when the table emptied), the
// focused pane within the panes (after f, the scroll at its title), the
// scroll within the content and the selected line on screen.
void fitToView(ViewState& state, const TabView& view, int contentLines);

}  // namespace fips::ctl::top
