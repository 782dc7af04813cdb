// SPDX-License-Identifier: MIT
// fipstop's Graphs tab: the daemon's node metrics history as stacked plots
// over the selected window (the reference's Node mode; its per-peer modes
// are not built).
// See tab-views.h.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "ctl/top/sparkline.h"
#include "ctl/top/tab-views.h"

namespace fips::ctl::top {

namespace {

// Rows per plot.
constexpr size_t PLOT_HEIGHT = 3;

}  // namespace

TabView graphsTab(const ViewState& state, const TopData& data, size_t width) {
  TabView view;
  const size_t plotWidth = width > 4 ? width - 4 : 1;
  const auto& history = data.history;
  view.lines.push_back({fmt::format(" Node metrics, window {} (Left/Right: window), newest right",
                                    GRAPH_WINDOWS[state.graphsWindow % GRAPH_WINDOWS.size()].label),
                        Tone::Title});
  if (!history.unavailableReason().empty()) {
    view.lines.push_back({"  not available: " + history.unavailableReason(), Tone::Dim});
    return view;
  }
  for (const auto& series : history.series()) {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (double v : series.values) {
      if (std::isnan(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    if (!std::isfinite(lo)) {
      view.lines.push_back(
          {fmt::format("  {} ({}): no samples yet", series.metric, series.unit), Tone::Header});
      continue;
    }
    view.lines.push_back(
        {fmt::format("  {} ({}): now {}  min {}  max {}", series.metric, series.unit,
                     formatRate(lastValue(series.values), series.unit), formatRate(lo, series.unit),
                     formatRate(hi, series.unit)),
         Tone::Header});
    for (auto& row : plotRows(fitWidth(series.values, plotWidth), plotWidth, PLOT_HEIGHT))
      view.lines.push_back({"  " + row, Tone::Plot});
  }
  return view;
}

}  // namespace fips::ctl::top
