// SPDX-License-Identifier: MIT
// fipstop's sparklines, plots, text clipping and its copy of the daemon's
// stats history.
#include "ctl/top/sparkline.h"

#include <cmath>

#include <capnp/message.h>

#include <doctest/doctest.h>

#include "ctl/top/node-history.h"

namespace fips::ctl::top {
namespace {

TEST_CASE("sparkline: eight levels from min to max; constant series full, or lowest at zero") {
  const std::vector<double> rising{1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(sparkline(rising) == "▁▂▃▄▅▆▇█");
  CHECK(sparkline(std::vector<double>{5, 5, 5}) == "███");
  CHECK(sparkline(std::vector<double>{}).empty());
  CHECK(sparklineTail(rising, 3) == "▁▅█");  // 6, 7, 8 scaled among themselves
  CHECK(displayWidth(sparklineTail(rising, 100)) == 8);
}

// Issue #7: a constant loss_rate or tree_depth drew as ▄ where plotRows
// draws a constant as full blocks; one rule for every metric now.
TEST_CASE("sparkline: a constant series draws as plotRows draws it") {
  for (double v : {0.25, 3.0, 1200.0}) {
    const std::vector<double> constant{v, v, std::nan(""), v};
    CHECK(sparkline(constant) == "██ █");
    CHECK(plotRows(constant, 4, 1)[0] == "██ █");
  }
  CHECK(sparkline(std::vector<double>{0, 0, 0}) == "▁▁▁");
  CHECK(sparkline(std::vector<double>{7}) == "█");
}

TEST_CASE("plotRows: bars rise from the bottom row, scaled to the series' peak") {
  const std::vector<double> values{0, 4, 8, 1};
  auto rows = plotRows(values, 10, 2);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0] == "  █ ");
  CHECK(rows[1] == " ██▂");  // 1 of 8 is 2/16 of the height: one quarter of the bottom row
  // Only the newest `width` values are drawn.
  rows = plotRows(values, 2, 1);
  CHECK(displayWidth(rows[0]) == 2);
  CHECK(plotRows(std::vector<double>{0, 0}, 5, 1)[0] == "  ");
}

TEST_CASE("clipToWidth cuts at code points, not bytes") {
  CHECK(clipToWidth("abc", 2) == "ab");
  CHECK(clipToWidth("▁▂▃", 2) == "▁▂");
  CHECK(clipToWidth("ab", 5) == "ab");
  CHECK(displayWidth("a▁…") == 3);
}

TEST_CASE("gaps (NaN): blank in sparklines and plots, skipped by fitWidth and lastValue") {
  const double gap = std::nan("");
  const std::vector<double> values{gap, gap, 1, gap, 8};
  CHECK(sparkline(values) == "  ▁ █");
  CHECK(sparkline(withoutLeadingGaps(values)) == "▁ █");
  CHECK(plotRows(values, 5, 1)[0] == "  ▁ █");
  CHECK(lastValue(values) == 8);
  CHECK(std::isnan(lastValue(std::vector<double>{gap})));
  // Ten samples into four points: shares [0,2) [2,5) [5,7) [7,10).
  const std::vector<double> ten{1, 3, gap, gap, gap, 5, 7, 2, 2, 2};
  const auto points = fitWidth(ten, 4);
  REQUIRE(points.size() == 4);
  CHECK(points[0] == 2);
  CHECK(std::isnan(points[1]));
  CHECK(points[2] == 6);
  CHECK(points[3] == 2);
  CHECK(fitWidth(ten, 20).size() == 10);
}

TEST_CASE("NodeHistory copies the daemon's series and says why when there are none") {
  capnp::MallocMessageBuilder msg;
  auto list = msg.initRoot<schema::StatsAllHistoryResult>().initSeries(2);
  list[0].setMetric("mesh_size");
  list[0].setUnit("nodes");
  list[0].setGranularitySeconds(1);
  auto v = list[0].initValues(3);
  v.set(0, std::nan(""));
  v.set(1, 2);
  v.set(2, 3);
  list[1].setMetric("peer_count");
  list[1].setUnit("peers");
  NodeHistory history;
  history.set(list.asReader(), GRAPH_WINDOWS[1]);
  REQUIRE(history.find("mesh_size") != nullptr);
  CHECK(history.find("mesh_size")->values.size() == 3);
  CHECK(history.find("mesh_size")->values[2] == 3);
  CHECK(history.find("peer_count")->unit == "peers");
  CHECK(history.find("bytes_in") == nullptr);
  CHECK(history.windowLabel() == "10m / 1s");
  CHECK(history.unavailableReason().empty());
  history.unavailable("unknown duration unit: x (expected s, m, h)");
  CHECK(history.series().empty());
  CHECK(history.unavailableReason() == "unknown duration unit: x (expected s, m, h)");
}

}  // namespace
}  // namespace fips::ctl::top
