// SPDX-License-Identifier: MIT
// fipstop's sparklines, plots, text clipping and client-side history.
#include "ctl/top/sparkline.h"

#include <doctest/doctest.h>

#include "ctl/top/node-history.h"

namespace fips::ctl::top {
namespace {

TEST_CASE("sparkline: eight levels from min to max; constant series at the middle") {
  const std::vector<double> rising{1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(sparkline(rising) == "▁▂▃▄▅▆▇█");
  CHECK(sparkline(std::vector<double>{5, 5, 5}) == "▄▄▄");
  CHECK(sparkline(std::vector<double>{}).empty());
  CHECK(sparklineTail(rising, 3) == "▁▅█");  // 6, 7, 8 scaled among themselves
  CHECK(displayWidth(sparklineTail(rising, 100)) == 8);
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

TEST_CASE("HistoryRing keeps the newest samples, oldest first") {
  HistoryRing ring(3);
  for (double v : {1, 2, 3, 4}) ring.push(v);
  const std::vector<double> kept(ring.values().begin(), ring.values().end());
  CHECK(kept == std::vector<double>{2, 3, 4});
  CHECK(ring.last() == 4);
}

void setTransport(Answers& a, uint64_t bytesIn, uint64_t bytesOut, uint64_t pktsIn,
                  uint64_t pktsOut) {
  auto t = a.snapshot.initTransports(1)[0];
  t.setBytesRecv(bytesIn);
  t.setBytesSent(bytesOut);
  t.setPacketsRecv(pktsIn);
  t.setPacketsSent(pktsOut);
  a.hasTransports = true;
}

TEST_CASE("NodeHistory: counts per poll, rates from counter differences") {
  NodeHistory history;
  Answers first;
  first.snapshot.initStatus().setPeerCount(2);
  first.hasStatus = true;
  first.snapshot.initTree().setDepth(1);
  first.hasTree = true;
  setTransport(first, 1000, 500, 10, 5);
  history.record(first, 0);
  CHECK(history.find("peers")->ring.last() == 2);
  CHECK(history.find("tree depth")->ring.last() == 1);
  CHECK(history.find("bytes in")->ring.empty());  // a rate needs two polls

  Answers second;
  setTransport(second, 3000, 1500, 30, 9);
  history.record(second, 2000);
  CHECK(history.find("bytes in")->ring.last() == 1000);
  CHECK(history.find("bytes out")->ring.last() == 500);
  CHECK(history.find("packets in")->ring.last() == 10);
  CHECK(history.find("packets out")->ring.last() == 2);
  CHECK(history.find("peers")->ring.values().size() == 1);  // no status in this poll

  Answers restarted;  // counters went backwards: no rate sample
  setTransport(restarted, 10, 10, 1, 1);
  history.record(restarted, 2000);
  CHECK(history.find("bytes in")->ring.values().size() == 1);
  CHECK(history.find("missing") == nullptr);
}

}  // namespace
}  // namespace fips::ctl::top
