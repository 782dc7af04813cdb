// SPDX-License-Identifier: MIT
// fipstop model: dispatch, bars, help and shared formatting (see tab-views.h).
#include "ctl/top/tab-views.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "ctl/top/sparkline.h"
#include "ctl/top/top-keys.h"

namespace fips::ctl::top {

const char* tabLabel(Tab tab) {
  switch (tab) {
    case Tab::Node:
      return "Node";
    case Tab::Peers:
      return "Peers";
    case Tab::Transports:
      return "Transports";
    case Tab::Sessions:
      return "Sessions";
    case Tab::Tree:
      return "Tree";
    case Tab::Filters:
      return "Filters";
    case Tab::Performance:
      return "Performance";
    case Tab::Routing:
      return "Routing";
    case Tab::Graphs:
      return "Graphs";
  }
  return "?";
}

namespace {

// Before the first answer: why there is nothing to show, wrapped to
// `width`.
TabView waiting(const TopData& data, size_t width) {
  TabView view;
  if (data.disconnected.empty()) {
    view.lines.push_back({"  Waiting for data...", Tone::Dim});
  } else {
    for (auto& line : wrapWords("  " + data.disconnected, width, 2))
      view.lines.push_back({line, Tone::Alert});
    view.lines.push_back(
        {fmt::format("  Retrying every {}s; q quits.", data.refreshSecs), Tone::Dim});
  }
  return view;
}

// A multi-pane tab's pane titles (its Title lines) into view.paneLines,
// the focused one marked ▶.
void markPanes(TabView& view, int focusedPane) {
  for (size_t i = 0; i < view.lines.size(); ++i)
    if (view.lines[i].tone == Tone::Title) view.paneLines.push_back(static_cast<int>(i));
  if (view.paneLines.empty()) return;
  const size_t focused = static_cast<size_t>(focusedPane) % view.paneLines.size();
  std::string& title = view.lines[static_cast<size_t>(view.paneLines[focused])].text;
  if (title.starts_with(" ")) title.replace(0, 1, "\u25b6");
}

TabView tabContent(const ViewState& state, const TopData& data, size_t width) {
  switch (state.tab) {
    case Tab::Node:
      return nodeTab(data, width);
    case Tab::Peers:
      return peersTab(state, data, width);
    case Tab::Transports:
      return transportsTab(state, data, width);
    case Tab::Sessions:
      return sessionsTab(state, data, width);
    case Tab::Tree:
      return treeTab(data, width);
    case Tab::Filters:
      return filtersTab(data, width);
    case Tab::Performance:
      return performanceTab(state, data, width);
    case Tab::Routing:
      return routingTab(data, width);
    case Tab::Graphs:
      return graphsTab(state, data, width);
  }
  return {};
}

}  // namespace

TabView buildTab(const ViewState& state, const TopData& data, size_t width) {
  if (!data.everConnected) return waiting(data, width);
  TabView view = tabContent(state, data, width);
  if (hasPanes(state.tab)) markPanes(view, state.focusedPane);
  // Titles and text lines too long for the screen end in "…" at a word
  // boundary rather than wherever the screen's edge falls (tables are
  // fitted by fitTable, plots to the width).
  for (Line& line : view.lines) line.text = shortenAtWord(line.text, width);
  return view;
}

TabView unavailableTab(const std::string& what) {
  TabView view;
  view.lines.push_back({" " + what, Tone::Title});
  view.lines.push_back({"  not available from this daemon yet", Tone::Dim});
  return view;
}

namespace {

// The tab bar's abbreviations, used when the full labels do not fit.
const char* tabShortLabel(Tab tab) {
  switch (tab) {
    case Tab::Node:
      return "Node";
    case Tab::Peers:
      return "Peers";
    case Tab::Transports:
      return "Trans";
    case Tab::Sessions:
      return "Sess";
    case Tab::Tree:
      return "Tree";
    case Tab::Filters:
      return "Filt";
    case Tab::Performance:
      return "Perf";
    case Tab::Routing:
      return "Route";
    case Tab::Graphs:
      return "Graph";
  }
  return "?";
}

// "N Label" for every tab, full or abbreviated.
std::vector<std::string> tabLabels(bool full) {
  std::vector<std::string> labels;
  for (size_t i = 0; i < ALL_TABS.size(); ++i)
    labels.push_back(
        fmt::format("{} {}", i + 1, full ? tabLabel(ALL_TABS[i]) : tabShortLabel(ALL_TABS[i])));
  return labels;
}

// `prefix` then labels [first, last] two spaces apart, "‹ " before when
// tabs are left out before, " ›" after when some are left out after.
TabBar joinTabs(const std::string& prefix, const std::vector<std::string>& labels, size_t first,
                size_t last, size_t active) {
  TabBar bar;
  bar.text = prefix + (first > 0 ? "\u2039 " : "");
  for (size_t i = first; i <= last; ++i) {
    if (i > first) bar.text += "  ";
    if (i == active) {
      bar.activeStart = displayWidth(bar.text);
      bar.activeWidth = displayWidth(labels[i]);
    }
    bar.text += labels[i];
  }
  if (last + 1 < labels.size()) bar.text += " \u203a";
  return bar;
}

}  // namespace

TabBar tabBar(Tab active, const std::string& version, size_t width) {
  const size_t index =
      static_cast<size_t>(std::find(ALL_TABS.begin(), ALL_TABS.end(), active) - ALL_TABS.begin());
  const size_t last = ALL_TABS.size() - 1;
  const auto full = tabLabels(true);
  const auto abbreviated = tabLabels(false);
  // The widest form that fits, the same whichever tab is active: the
  // title and full labels, full labels, abbreviated labels.
  for (const std::string& prefix :
       {fmt::format(" fipstop {} \u2502 ", version), std::string(" ")}) {
    TabBar bar = joinTabs(prefix, full, 0, last, index);
    if (displayWidth(bar.text) <= width) return bar;
  }
  TabBar bar = joinTabs(" ", abbreviated, 0, last, index);
  if (displayWidth(bar.text) <= width) return bar;
  // Narrower still: the abbreviated labels around the active tab, as many
  // as fit, with ‹ › where the bar goes on.
  size_t first = index;
  size_t end = index;
  for (bool grew = true; grew;) {
    grew = false;
    if (end < last &&
        displayWidth(joinTabs(" ", abbreviated, first, end + 1, index).text) <= width) {
      ++end;
      grew = true;
    }
    if (first > 0 &&
        displayWidth(joinTabs(" ", abbreviated, first - 1, end, index).text) <= width) {
      --first;
      grew = true;
    }
  }
  return joinTabs(" ", abbreviated, first, end, index);
}

namespace {

// The keys `state` accepts besides the global ones, most useful first
// (the reference's contextual footer hints, keyed by tab and mode).
std::vector<const char*> keyHints(const ViewState& state) {
  if (state.confirming) return {"Y disconnect", "N/Esc cancel"};
  if (state.help) return {"?/Esc close"};
  if (state.detail) return {"Esc back"};
  switch (state.tab) {
    case Tab::Peers:
      return {"\u2191\u2193 select", "Enter detail", "Del disconnect"};
    case Tab::Transports:
      return {"\u2191\u2193 select", "\u2192 expand", "\u2190 collapse", "e/c all", "Enter detail"};
    case Tab::Sessions:
      return {"\u2191\u2193 select", "Enter detail"};
    case Tab::Performance:
      return {"f pane", "s/S sort", "\u2191\u2193 scroll"};
    case Tab::Tree:
    case Tab::Filters:
    case Tab::Routing:
      return {"f pane", "\u2191\u2193 scroll"};
    case Tab::Graphs:
      if (state.graphsMode == GraphsMode::MetricByPeer)
        return {"\u2190\u2192 window", "m mode",     "n/N metric",
                "\u2191\u2193 select", "Enter plot", "s/S sort"};
      if (state.graphsMode == GraphsMode::PeerByMetric)
        return {"\u2190\u2192 window", "m mode", "n/N peer"};
      return {"\u2190\u2192 window", "m mode"};
    case Tab::Node:
      return {"1-9 jump"};
  }
  return {};
}

}  // namespace

std::string statusBar(const ViewState& state, const TopData& data, uint64_t msSincePoll,
                      size_t width) {
  const bool modal = state.confirming || state.help;
  const std::string help = modal ? "" : "  ? help";
  const std::string head = data.disconnected.empty() ? " Connected" : " Disconnected: ";
  const size_t helpWidth = modal ? 0 : displayWidth(help) + 1;  // " | ? help"
  const std::string updated = fmt::format(" | Updated: {:.1f}s ago", double(msSincePoll) / 1000.0);
  std::string refresh = fmt::format(" | Refresh: {}s", data.refreshSecs) + updated;
  // Disconnected: the reason matters more than the refresh interval.
  if (!data.disconnected.empty() &&
      displayWidth(head + data.disconnected + refresh) + helpWidth > width)
    refresh = updated;
  // The disconnect reason and the notice share what the fixed parts and
  // " | ? help" leave, each shortened at a word boundary (the reason
  // keeps at least half); a notice with less than 8 columns is left out.
  const size_t used = displayWidth(head + refresh) + helpWidth;
  size_t room = width > used ? width - used : 0;
  std::string reason = data.disconnected;
  std::string notice = data.notice.empty() ? "" : " | " + data.notice;
  if (displayWidth(reason) + displayWidth(notice) > room) {
    reason = shortenAtWord(
        reason, std::max(room / 2, room > displayWidth(notice) ? room - displayWidth(notice) : 0));
    room -= std::min(room, displayWidth(reason));
    notice =
        !data.notice.empty() && room >= 3 + 8 ? " | " + shortenAtWord(data.notice, room - 3) : "";
  }
  const std::string text = head + reason + refresh + notice;
  // As the reference's footer: the contextual keys first, then the global
  // ones, each where it fits (room kept for "? help" last), two spaces
  // apart after " | ".
  std::vector<const char*> hints = keyHints(state);
  if (!modal) hints.insert(hints.end(), {"q quit", "Tab tabs"});
  const size_t fixed = displayWidth(text) + 1;  // " |" less the two spaces of the first hint
  if (fixed + displayWidth(help) > width) return text;
  const size_t budget = width - fixed - displayWidth(help);
  std::string keys;
  for (const char* hint : hints) {
    const std::string next = std::string("  ") + hint;
    if (displayWidth(keys) + displayWidth(next) <= budget) keys += next;
  }
  keys += help;
  return keys.empty() ? text : text + " |" + keys.substr(1);
}

std::vector<Line> helpLines(size_t width) {
  // A title (key "") or a key and what it does.
  struct Entry {
    const char* key;
    const char* what;
  };
  // At 80 columns at most 21 lines of at most 79 columns: the content
  // area of an 80x24 terminal.
  static constexpr Entry ENTRIES[] = {
      {"", "Keys (? or Esc closes)"},
      {"q, Ctrl-C", "quit"},
      {"Tab, Shift-Tab", "next / previous tab; also Right, Left where unused"},
      {"1-9, g", "jump to a tab (1 Node ... 9 Graphs), g: Graphs"},
      {"Up, Down", "select a row (Peers, Transports, Sessions) or scroll"},
      {"PageUp, PageDown", "scroll ten rows; Home, End: top, bottom"},
      {"Enter, Esc", "open the selected row's detail; close it, else deselect"},
      {"", "Peers"},
      {"Del", "disconnect the selected peer (asks Y/N first)"},
      {"", "Transports"},
      {"Right/Space, Left", "expand / collapse the selected transport; e, c: all"},
      {"", "Tree, Filters, Performance, Routing"},
      {"f", "focus the next pane and scroll to it"},
      {"s, S", "Performance: sort column, direction of the focused pane"},
      {"", "Graphs"},
      {"Right/Space, Left", "next / previous time window"},
      {"m", "mode: Node, MetricByPeer, PeerByMetric"},
      {"n, N", "next / previous metric (MetricByPeer), peer (PeerByMetric)"},
      {"Up, Down, Enter", "MetricByPeer: select a peer, plot it full size"},
      {"s, S", "MetricByPeer: sort column, direction"},
  };
  // The descriptions start in column 20 and wrap under themselves; the
  // last column stays free as on the status bar.
  const size_t room = width > 1 ? width - 1 : width;
  std::vector<Line> lines;
  for (const Entry& e : ENTRIES) {
    if (e.key[0] == '\0') {
      lines.push_back({shortenAtWord(std::string(" ") + e.what, room), Tone::Title});
      continue;
    }
    const auto what = wrapWords(e.what, room > 20 ? room - 20 : 1, 0);
    for (size_t i = 0; i < what.size(); ++i)
      lines.push_back({fmt::format("  {:<18}{}", i == 0 ? e.key : "", what[i])});
  }
  return lines;
}

void requestDisconnect(ViewState& state, const TopData& data) {
  const auto& a = *data.answers;
  if (state.tab != Tab::Peers || state.detail || state.selected < 0 || !a.hasPeers) return;
  const auto order = peerOrder(data);
  if (state.selected >= static_cast<int>(order.size())) return;
  auto p = a.snapshot.asReader().getPeers()[order[static_cast<size_t>(state.selected)]];
  if (p.getNpub().size() == 0) return;
  state.confirm = {p.getNpub(), p.getDisplayName().size() > 0 ? std::string(p.getDisplayName())
                                                              : std::string(p.getNpub())};
  state.confirming = true;
}

std::vector<Line> confirmLines(const DisconnectConfirm& confirm) {
  return {
      {" Disconnect peer?", Tone::Alert},
      {""},
      {"  Peer: " + confirm.name},
      {"  This node will not redial it until its link comes up", Tone::Dim},
      {"  again (the peer dials us, or connect) and is lost.", Tone::Dim},
      {""},
      {"  [Y] disconnect    [N/Esc] cancel"},
  };
}

std::string formatBytes(uint64_t bytes) {
  const double b = double(bytes);
  if (bytes < 1024) return fmt::format("{}B", bytes);
  if (bytes < 1024 * 1024) return fmt::format("{:.1f}KB", b / 1024.0);
  if (bytes < 1024ull * 1024 * 1024) return fmt::format("{:.1f}MB", b / (1024.0 * 1024.0));
  return fmt::format("{:.2f}GB", b / (1024.0 * 1024.0 * 1024.0));
}

std::string formatThroughput(double bytesPerSec) {
  if (!(bytesPerSec > 0)) return "0 B/s";
  const char* units[] = {"B/s", "KB/s", "MB/s", "GB/s"};
  size_t unit = 0;
  while (bytesPerSec >= 1000.0 && unit + 1 < std::size(units)) {
    bytesPerSec /= 1000.0;
    ++unit;
  }
  const int decimals = bytesPerSec >= 100.0 ? 0 : bytesPerSec >= 10.0 ? 1 : 2;
  return fmt::format("{:.{}f} {}", bytesPerSec, decimals, units[unit]);
}

std::string formatRate(double value, const std::string& unit) {
  if (std::isnan(value)) return "-";
  if (unit == "bytes/s") return formatBytes(static_cast<uint64_t>(value < 0 ? 0 : value)) + "/s";
  if (unit == "fraction") return fmt::format("{:.1f}%", value * 100.0);
  if (unit.ends_with("/s")) return fmt::format("{:.1f} {}", value, unit);
  return fmt::format("{:g}", value);
}

std::string shortId(const std::string& id) {
  return id.size() <= 16 ? id : id.substr(0, 16) + "\u2026";
}

// Cells may hold "…" or box-drawing glyphs: display columns, not bytes.
std::vector<size_t> columnWidths(const std::vector<TableRow>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.cells.size()), 0);
    for (size_t i = 0; i < row.cells.size(); ++i)
      widths[i] = std::max(widths[i], displayWidth(row.cells[i]));
  }
  return widths;
}

void appendTable(TabView& view, const std::vector<TableRow>& rows, int selected) {
  // Columns padded to their widest cell, two spaces apart.
  const std::vector<size_t> widths = columnWidths(rows);
  int selectable = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string line = " ";
    const auto& cells = rows[r].cells;
    for (size_t i = 0; i < cells.size(); ++i) {
      line += " " + cells[i];
      if (i + 1 < cells.size()) line += std::string(widths[i] - displayWidth(cells[i]) + 1, ' ');
    }
    Tone tone = Tone::Normal;
    if (r == 0) {
      tone = Tone::Header;
    } else if (rows[r].selectable) {
      if (selectable == selected) {
        tone = Tone::Selected;
        view.selectedLine = static_cast<int>(view.lines.size());
      }
      ++selectable;
    } else {
      tone = Tone::Dim;
    }
    view.lines.push_back({line, tone});
  }
  view.selectableRows += selectable;
}

}  // namespace fips::ctl::top
