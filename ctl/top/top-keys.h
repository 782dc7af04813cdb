// SPDX-License-Identifier: MIT
// fipstop's keys (the reference's global and table keys, plus number keys
// and Left/Right to pick a tab): what a key does to the ViewState. Pure;
// the curses key codes are mapped here so the mapping is tested too.
#pragma once

#include "ctl/top/top-view.h"

namespace fips::ctl::top {

enum class Key {
  None,
  Quit,     // q, Q, Ctrl-C
  NextTab,  // Tab, Right
  PrevTab,  // Shift-Tab, Left
  Up,
  Down,
  PageUp,
  PageDown,
  Home,
  End,
  Enter,   // open the selected row's detail
  Escape,  // close the detail, else deselect
  Help,    // ?
  Graphs,  // g
  Tab1,    // 1..9: that tab, in cycle order
};

// A curses key code (getch) as a Key; `digitTab` gets 0..8 for '1'..'9'.
Key keyFromCurses(int code, int& digitTab);

// Applies `key` to `state`. `rows` is the number of selectable rows on the
// current tab, `pageLines` the content height (for PageUp/PageDown).
void handleKey(ViewState& state, Key key, int digitTab, int rows, int pageLines);

// True for tabs whose Up/Down select a table row (Peers, Transports).
bool hasTable(Tab tab);

// Keeps `state` within what `view` shows on `contentLines` lines: the
// selection within the table's rows (cleared when the table emptied), the
// scroll within the content and the selected line on screen.
void fitToView(ViewState& state, const TabView& view, int contentLines);

}  // namespace fips::ctl::top
