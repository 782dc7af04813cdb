// SPDX-License-Identifier: MIT
// fipstop's Graphs tab: the node metrics' history as stacked plots (the
// reference's Node mode; its per-peer modes need the daemon's history).
// See tab-views.h.
#include <algorithm>

#include <fmt/format.h>

#include "ctl/top/sparkline.h"
#include "ctl/top/tab-views.h"

namespace fips::ctl::top {

namespace {

// Rows per plot.
constexpr size_t PLOT_HEIGHT = 3;

}  // namespace

TabView graphsTab(const TopData& data, size_t width) {
  TabView view;
  const size_t plotWidth = width > 4 ? width - 4 : 1;
  view.lines.push_back({fmt::format(" Node metrics, one sample per poll (every {}s), newest right",
                                    data.refreshSecs),
                        Tone::Title});
  for (const auto& series : data.history.series()) {
    const auto values = series.ring.values();
    if (values.empty()) {
      view.lines.push_back({fmt::format("  {}: no samples yet", series.name), Tone::Header});
      continue;
    }
    auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    view.lines.push_back({fmt::format("  {}: now {}  min {}  max {}", series.name,
                                      formatRate(series.ring.last(), series.unit),
                                      formatRate(*lo, series.unit), formatRate(*hi, series.unit)),
                          Tone::Header});
    for (auto& row : plotRows(values, plotWidth, PLOT_HEIGHT))
      view.lines.push_back({"  " + row, Tone::Plot});
  }
  return view;
}

}  // namespace fips::ctl::top
