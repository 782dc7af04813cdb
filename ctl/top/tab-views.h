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
std::string statusBar(const ViewState& state, const TopData& data, uint64_t msSincePoll,
                      size_t width);

// The ? overlay: every key and what it does.
std::vector<Line> helpLines();

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
// The Peers table leaves out its Npub column (the detail has it) when it
// is wider than `width` columns.
TabView peersTab(const ViewState& state, const TopData& data, size_t width);
TabView transportsTab(const ViewState& state, const TopData& data);
TabView sessionsTab(const ViewState& state, const TopData& data);
TabView treeTab(const TopData& data);
TabView filtersTab(const TopData& data);
TabView routingTab(const TopData& data);
TabView performanceTab(const ViewState& state, const TopData& data);
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
// The columns appendTable draws `rows` in: the leading space included.
size_t tableWidth(const std::vector<TableRow>& rows);

}  // namespace fips::ctl::top
