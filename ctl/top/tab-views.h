// SPDX-License-Identifier: MIT
// fipstop's model: the daemon's answers (TopData) as the lines of each tab,
// the tab bar, the status bar and the help overlay. Pure functions of
// their arguments, unit-tested from fixed snapshots; top-screen.h draws
// the result. Runs in fipstop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ctl/top/text-fit.h"
#include "ctl/top/top-data.h"
#include "ctl/top/top-view.h"

namespace fips::ctl::top {

// The content of `state.tab` for a screen `width` columns wide.
TabView buildTab(const ViewState& state, const TopData& data, size_t width);

// The tab bar for a screen `width` columns wide: " fipstop VERSION │
// 1 Node  2 Peers  ..." when it fits, else the same without the title
// (97 columns), else every tab abbreviated (" 1 Node  2 Peers  3 Trans
// 4 Sess ...", 75 columns), else the abbreviated tabs around the active
// one that fit, with "‹ " / " ›" where tabs are left out. The columns
// [activeStart, activeStart + activeWidth) are the active tab's label.
struct TabBar {
  std::string text;
  size_t activeStart = 0;
  size_t activeWidth = 0;
};
TabBar tabBar(Tab active, const std::string& version, size_t width);

// The status bar: " Connected | Refresh: 2s | Updated: 0.4s ago | ..." or
// " Disconnected: <reason> | ...", the last disconnect's outcome, and the
// keys `state` accepts that fit `width`: its tab's, mode's, detail's or
// modal's first, then q and Tab, "? help" last (the reference's footer).
// When it is too wide, a disconnected bar leaves out "Refresh: 2s", then
// the reason and the outcome end in "…" at a word boundary.
std::string statusBar(const ViewState& state, const TopData& data, uint64_t msSincePoll,
                      size_t width);

// The ? overlay: every key and what it does, in lines of less than
// `width` columns (descriptions wrapped at word boundaries).
std::vector<Line> helpLines(size_t width);

// The Peers tab's order (the reference's): the tree parent, then our STP
// children, then the other peers, each group by LQI, best (lowest)
// first and unmeasured last. Indexes into the snapshot's peers; `role`
// gets each one's group (PeerRole), in the same order.
enum class PeerRole { Parent, Child, Other };
std::vector<unsigned> peerOrder(const TopData& data, std::vector<PeerRole>* roles = nullptr);

// Del on the Peers tab: opens the confirmation for the selected peer (in
// the order the tab shows them); nothing without a selection, in the
// detail view, or on another tab.
void requestDisconnect(ViewState& state, const TopData& data);

// The Del confirmation drawn over the content: the peer's name, that this
// node does not redial it until its link comes up again (the peer dials
// us, or connect) and is lost (README), and the Y / N keys.
std::vector<Line> confirmLines(const DisconnectConfirm& confirm);

// The shared tab builders (one file per group of tabs).
TabView nodeTab(const TopData& data, size_t width);
// The Peers table leaves out its Npub column (the detail has it) first
// when it is wider than `width` columns.
TabView peersTab(const ViewState& state, const TopData& data, size_t width);
// Every table is fitted to `width` (fitTable), each tab's columns giving
// way in its own order.
TabView transportsTab(const ViewState& state, const TopData& data, size_t width);
TabView sessionsTab(const ViewState& state, const TopData& data, size_t width);
TabView treeTab(const TopData& data, size_t width);
TabView filtersTab(const TopData& data, size_t width);
TabView routingTab(const TopData& data, size_t width);
TabView performanceTab(const ViewState& state, const TopData& data, size_t width);
TabView graphsTab(const ViewState& state, const TopData& data, size_t width);
// A tab whose query this daemon does not serve: says so in one line.
TabView unavailableTab(const std::string& what);

// Shared formatting.
// "512B", "1.5KB", "2.0MB", "1.25GB" (the reference's format_bytes).
std::string formatBytes(uint64_t bytes);
// Bytes/s in decimal units with three significant digits: "512 B/s",
// "1.50 KB/s", "12.5 MB/s" (the reference's format_throughput).
std::string formatThroughput(double bytesPerSec);
// A history value in `unit`: "bytes/s" as formatBytes + "/s", "fraction"
// as a percentage, other rates ("…/s") with one decimal, counts as they
// are; "-" for a gap (NaN).
std::string formatRate(double value, const std::string& unit);
// The first 16 characters of an npub or hex address and "…".
std::string shortId(const std::string& id);
// Appends an aligned table (first row the header). Rows flagged
// selectable count as table rows; the `selected`-th of them is drawn
// selected and its line index stored in view.selectedLine.
struct TableRow {
  std::vector<std::string> cells;
  bool selectable = true;
};
void appendTable(TabView& view, const std::vector<TableRow>& rows, int selected);
// Each column's widest cell, in display columns.
std::vector<size_t> columnWidths(const std::vector<TableRow>& rows);

// How a table column gives way when the table is wider than the screen
// (fitTable); one per header cell. The default is always shown, whole.
struct ColumnFit {
  // 0: always shown. Else left out when the table does not fit, the
  // highest rank first, the columns of one rank together.
  int dropRank = 0;
  // Cells wider than this many columns are cut with `elide` (0: no limit).
  size_t maxWidth = 0;
  // Above 0: the column may be narrowed down to this many columns, its
  // cells cut with `elide`...
  size_t minWidth = 0;
  // elideEnd, elideMiddle or elideCoords (text-fit.h).
  std::string (*elide)(const std::string&, size_t) = elideEnd;
  // ... rather than leaving out the columns of this drop rank and below
  // (0: only once no column is left to drop).
  int narrowRank = 0;
};

// `rows` (header first) fitted into `width` columns, so that no column is
// cut by the screen's edge: cells above their column's maxWidth elided;
// then, while the table is too wide, for each drop rank from the highest:
// the columns that narrow rather than lose that rank narrowed (the one
// with most room to give first) when that is enough, else that rank's
// columns left out. When every droppable column is gone, every narrowable
// column narrows, down to its minimum (a table that still does not fit is
// left to the screen's edge). Rows shorter than the header (group labels,
// spacers) keep their cells whole.
std::vector<TableRow> fitTable(std::vector<TableRow> rows, const std::vector<ColumnFit>& fit,
                               size_t width);
// appendTable of fitTable(rows, fit, width).
void appendTable(TabView& view, std::vector<TableRow> rows, int selected,
                 const std::vector<ColumnFit>& fit, size_t width);

}  // namespace fips::ctl::top
