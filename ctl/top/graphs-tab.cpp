// SPDX-License-Identifier: MIT
// fipstop's Graphs tab in the reference's three modes (m cycles them):
// Node, the node's metrics stacked; MetricByPeer, one per-peer metric as
// a summary row and sparkline per peer (Up/Down select, Enter plots the
// selected one full size, s/S sort); PeerByMetric, every per-peer metric
// of one peer stacked (n/N pick the peer). All over the selected window.
// See tab-views.h.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "ctl/top/sparkline.h"
#include "ctl/top/tab-views.h"
#include "ctl/top/text-fit.h"

namespace fips::ctl::top {

namespace {

// Rows per plot, and of MetricByPeer's full-size plot.
constexpr size_t PLOT_HEIGHT = 3;
constexpr size_t DETAIL_HEIGHT = 10;

// A series' minimum, maximum, newest value and sample count (gaps skipped;
// min and max NaN when there is no sample).
struct Summary {
  double min = std::nan("");
  double max = std::nan("");
  double last = std::nan("");
  size_t samples = 0;
};

Summary summarize(const Series& series) {
  Summary s;
  for (double v : series.values) {
    if (std::isnan(v)) continue;
    s.min = s.samples == 0 ? v : std::min(s.min, v);
    s.max = s.samples == 0 ? v : std::max(s.max, v);
    ++s.samples;
  }
  s.last = lastValue(series.values);
  return s;
}

// One metric's header line and plot rows.
void appendPlot(TabView& view, const Series& series, const std::string& label, size_t plotWidth,
                size_t height) {
  const Summary sum = summarize(series);
  if (sum.samples == 0) {
    view.lines.push_back(
        {fmt::format("  {} ({}): no samples yet", label, series.unit), Tone::Header});
    return;
  }
  // The values with their unit, or without it (the unit is in the
  // parentheses) when the line would not fit the plot's width.
  const std::string& unit = series.unit;
  std::string header =
      fmt::format("  {} ({}): now {}  min {}  max {}", label, unit, formatRate(sum.last, unit),
                  formatRate(sum.min, unit), formatRate(sum.max, unit));
  const std::string suffix = " " + unit;
  auto bare = [&](double v) {
    std::string text = formatRate(v, unit);
    return text.ends_with(suffix) ? text.substr(0, text.size() - suffix.size()) : text;
  };
  if (displayWidth(header) > plotWidth + 2)
    header = fmt::format("  {} ({}): now {}  min {}  max {}", label, unit, bare(sum.last),
                         bare(sum.min), bare(sum.max));
  view.lines.push_back({header, Tone::Header});
  for (auto& row : plotRows(fitWidth(series.values, plotWidth), plotWidth, height))
    view.lines.push_back({"  " + row, Tone::Plot});
}

void stackedPlots(TabView& view, const TopData& data, size_t plotWidth) {
  const auto& history = data.history;
  if (!history.unavailableReason().empty()) {
    view.lines.push_back({"  not available: " + history.unavailableReason(), Tone::Dim});
    return;
  }
  for (const auto& series : history.series())
    appendPlot(view, series, series.metric, plotWidth, PLOT_HEIGHT);
}

// The sort key of `column` (GRAPHS_PEER_SORT_LABELS; 0, the name, is
// compared apart); a missing value sorts last ascending.
double summaryKey(const Summary& s, size_t column) {
  const double absent = std::numeric_limits<double>::infinity();
  switch (column) {
    case 1:
      return std::isnan(s.min) ? absent : s.min;
    case 2:
      return std::isnan(s.max) ? absent : s.max;
    case 3:
      return std::isnan(s.last) ? absent : s.last;
    default:
      return static_cast<double>(s.samples);
  }
}

// MetricByPeer's peers in the order `sort` says.
std::vector<size_t> sortedPeers(const std::vector<PeerSeries>& peers, SortState sort) {
  std::vector<size_t> order(peers.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const size_t column = sort.column % GRAPHS_PEER_SORT_LABELS.size();
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (sort.descending) std::swap(a, b);
    if (column == 0) return peers[a].name < peers[b].name;
    return summaryKey(summarize(peers[a].series), column) <
           summaryKey(summarize(peers[b].series), column);
  });
  return order;
}

void metricByPeer(TabView& view, const ViewState& state, const TopData& data, size_t plotWidth) {
  const auto& peers = data.byPeer;
  view.selectableRows = static_cast<int>(peers.size());
  if (peers.empty()) {
    view.lines.push_back({"  no peer is tracked in the stats history yet", Tone::Dim});
    return;
  }
  const auto order = sortedPeers(peers, state.graphsPeerSort);
  const size_t selected = std::min(state.graphsPeer, peers.size() - 1);
  if (state.detail) {
    const PeerSeries& p = peers[order[selected]];
    appendPlot(view, p.series, p.name, plotWidth, DETAIL_HEIGHT);
    view.lines.push_back({"  Esc: back to the list", Tone::Dim});
    return;
  }
  std::string sortLine = "  sort:";
  const SortState sort = state.graphsPeerSort;
  for (size_t i = 0; i < GRAPHS_PEER_SORT_LABELS.size(); ++i) {
    sortLine += fmt::format(" {}", GRAPHS_PEER_SORT_LABELS[i]);
    if (i == sort.column % GRAPHS_PEER_SORT_LABELS.size())
      sortLine += sort.descending ? "\u25bc" : "\u25b2";
  }
  view.lines.push_back({sortLine, Tone::Dim});
  for (size_t k = 0; k < order.size(); ++k) {
    const PeerSeries& p = peers[order[k]];
    const Summary sum = summarize(p.series);
    const std::string& unit = p.series.unit;
    const std::string text =
        fmt::format("  {:<16} min {:<10} max {:<10} last {:<10} n {:<5} ", elideEnd(p.name, 16),
                    formatRate(sum.min, unit), formatRate(sum.max, unit),
                    formatRate(sum.last, unit), sum.samples);
    // The sparkline takes what is left of the line (plotWidth + 2 columns).
    const size_t used = displayWidth(text);
    const size_t sparkWidth = plotWidth + 2 > used ? plotWidth + 2 - used : 0;
    const std::string spark =
        sparkWidth == 0 ? "" : sparkline(fitWidth(withoutLeadingGaps(p.series.values), sparkWidth));
    if (k == selected) view.selectedLine = static_cast<int>(view.lines.size());
    view.lines.push_back({text + spark, k == selected ? Tone::Selected : Tone::Normal});
  }
}

}  // namespace

TabView graphsTab(const ViewState& state, const TopData& data, size_t width) {
  TabView view;
  const size_t plotWidth = width > 4 ? width - 4 : 1;
  const char* window = GRAPH_WINDOWS[state.graphsWindow % GRAPH_WINDOWS.size()].label;
  switch (state.graphsMode) {
    case GraphsMode::Node:
      view.lines.push_back(
          {fmt::format(" Node metrics, window {} (Left/Right: window, m: mode), newest right",
                       window),
           Tone::Title});
      stackedPlots(view, data, plotWidth);
      break;
    case GraphsMode::MetricByPeer:
      view.lines.push_back(
          {fmt::format(" {} by peer, window {} (n/N: metric, m: mode, Enter: plot)",
                       PEER_GRAPH_METRICS[state.graphsMetric % PEER_GRAPH_METRICS.size()], window),
           Tone::Title});
      metricByPeer(view, state, data, plotWidth);
      break;
    case GraphsMode::PeerByMetric: {
      // The peer's name gets what the rest of the title leaves (at least
      // 16 columns), so that the window shows.
      const std::string rest = fmt::format(", window {} (n/N: peer, m: mode)", window);
      const size_t used = displayWidth(" Peer " + rest);
      view.lines.push_back({" Peer " +
                                elideEnd(data.historyPeer.empty() ? "-" : data.historyPeer,
                                         std::max<size_t>(16, width > used ? width - used : 0)) +
                                rest,
                            Tone::Title});
    }
      view.selectableRows = static_cast<int>(data.graphPeers.size());
      stackedPlots(view, data, plotWidth);
      break;
  }
  return view;
}

}  // namespace fips::ctl::top
