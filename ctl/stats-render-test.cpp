// SPDX-License-Identifier: MIT
// stats list|peers|history output from fixed answers: JSON with the
// reference's keys (gaps as null), tables, the --plot header and the
// sparkline's eight levels, gaps and flat series.
#include "ctl/stats-render.h"

#include <cmath>
#include <vector>

#include <capnp/message.h>

#include <doctest/doctest.h>

namespace fips::ctl {
namespace {

constexpr const char* PEER_NPUB = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";

struct SeriesFixture {
  capnp::MallocMessageBuilder msg;
  schema::StatsSeries::Builder series = msg.initRoot<schema::StatsSeries>();

  SeriesFixture(const char* metric, const char* unit, uint32_t granularity,
                const std::vector<double>& values) {
    series.setMetric(metric);
    series.setUnit(unit);
    series.setGranularitySeconds(granularity);
    auto list = series.initValues(static_cast<unsigned>(values.size()));
    for (unsigned i = 0; i < values.size(); ++i) list.set(i, values[i]);
  }
};

const double GAP = std::nan("");

TEST_CASE("sparkline: eight levels from min to max, gaps blank") {
  const std::vector<double> ramp{0, 1, 2, 3, 4, 5, 6, 7};
  CHECK(sparkline(ramp, 0, 7) == "▁▂▃▄▅▆▇█");
  const std::vector<double> gaps{0, GAP, 7};
  CHECK(sparkline(gaps, 0, 7) == "▁ █");
  // Rounded to the nearest level; values outside the range are clamped.
  const std::vector<double> mid{0.49, 0.5, 10, -3};
  CHECK(sparkline(mid, 0, 7) == "▁▂█▁");
  const std::vector<double> flat{5, 5, GAP};
  CHECK(sparkline(flat, 5, 5) == "▄▄ ");
  CHECK(sparkline({}, 0, 1).empty());
}

TEST_CASE("stats history --plot: header, min/max/last and the sparkline") {
  SeriesFixture f("mesh_size", "nodes", 1, {GAP, GAP, 2, 4, 3});
  CHECK(seriesPlot(f.series.asReader()) ==
        "mesh_size (nodes) — 5 samples @ 1s = 5s window (2 gaps)\n"
        "  min=2.000 max=4.000 last=3.000\n"
        "    ▁█▅\n");
  SeriesFixture slow("bytes_in", "bytes/s", 60, {10, 10});
  CHECK(seriesPlot(slow.series.asReader()) ==
        "bytes_in (bytes/s) — 2 samples @ 60s = 120s window\n"
        "  min=10.000 max=10.000 last=10.000\n"
        "  ▄▄\n");
  SeriesFixture gaps("loss_rate", "fraction", 1, {GAP, GAP});
  CHECK(seriesPlot(gaps.series.asReader()) ==
        "loss_rate (fraction) — 2 samples @ 1s = 2s window (2 gaps)\n"
        "  min=0.000 max=0.000 last=-\n"
        "    \n");
  SeriesFixture empty("mesh_size", "nodes", 1, {});
  CHECK(seriesPlot(empty.series.asReader()) == "mesh_size: no data yet\n");
}

TEST_CASE("stats history --plot: fitted to the terminal's width") {
  // 8 samples in a 6-column terminal: 4 columns of 2 samples each.
  SeriesFixture f("mesh_size", "nodes", 1, {0, 0, 6, 6, GAP, GAP, 14, GAP});
  CHECK(seriesPlot(f.series.asReader(), 6) ==
        "mesh_size (nodes) — 8 samples @ 1s = 8s window (3 gaps)\n"
        "  min=0.000 max=14.000 last=14.000\n"
        "  ▁▄ █\n"
        "  (8 samples in 4 columns: each the mean of 2-2 samples)\n");
  // Wide enough, or no width known (not a terminal): every sample, as the reference.
  CHECK(seriesPlot(f.series.asReader(), 10) == seriesPlot(f.series.asReader(), 0));
  CHECK(seriesPlot(f.series.asReader(), 0).find("  ▁▁▄▄  █ \n") != std::string::npos);
}

TEST_CASE("downsample: means of consecutive samples, gaps left out") {
  const std::vector<double> values{1, 3, GAP, 5, GAP, GAP, 7};
  const std::vector<double> three = downsample(values, 3);
  REQUIRE(three.size() == 3);
  CHECK(three[0] == 2.0);  // 1, 3
  CHECK(three[1] == 5.0);  // gap, 5
  CHECK(three[2] == 7.0);  // gap, gap, 7
  const std::vector<double> allGaps = downsample(std::vector<double>{GAP, GAP, 1, 1}, 2);
  CHECK(std::isnan(allGaps[0]));
  CHECK(allGaps[1] == 1.0);
  CHECK(downsample(values, 7).size() == 7);
  CHECK(downsample(values, 0).size() == 7);
}

TEST_CASE("stats history --json: the reference's Series keys, gaps as null") {
  SeriesFixture f("loss_rate", "fraction", 1, {GAP, 0.25, 3});
  CHECK(
      seriesJson(f.series.asReader()).dump() ==
      R"({"granularity_seconds":1,"metric":"loss_rate","unit":"fraction","values":[null,0.25,3.0]})");
}

TEST_CASE("stats history table: age and value per sample") {
  SeriesFixture f("peer_count", "peers", 60, {GAP, 2, 0.5});
  CHECK(seriesTable(f.series.asReader()) ==
        "peer_count (peers), 3 samples @ 60s\n"
        "AGE     VALUE\n"
        "-2m00s  -\n"
        "-1m00s  2\n"
        "0s      0.500\n");
}

TEST_CASE("stats history table: a window shorter than one step has no samples, and says why") {
  SeriesFixture none("peer_count", "peers", 60, {});
  CHECK(seriesTable(none.series.asReader()) ==
        "peer_count (peers), 0 samples @ 60s\n"
        "note: no samples: the window is shorter than one 60s step\n");
}

TEST_CASE("stats history: a window cut to the ring's retention is said") {
  SeriesFixture fast("peer_count", "peers", 1, {1, 2});
  fast.series.setWindowCutFromSeconds(7200);
  CHECK(seriesJson(fast.series.asReader()).dump() ==
        R"({"granularity_seconds":1,"metric":"peer_count","unit":"peers","values":[1.0,2.0],)"
        R"("window_cut_from_seconds":7200,"retention_seconds":3600})");
  CHECK(seriesTable(fast.series.asReader()) ==
        "peer_count (peers), 2 samples @ 1s\n"
        "note: window cut to 1h00m, all the 1s ring keeps (asked for 2h00m); --granularity 1m "
        "reaches 1d00h\n"
        "AGE  VALUE\n"
        "-1s  1\n"
        "0s   2\n");
  CHECK(seriesPlot(fast.series.asReader()) ==
        "peer_count (peers) — 2 samples @ 1s = 2s window\n"
        "  min=1.000 max=2.000 last=2.000\n"
        "  ▁█\n"
        "note: window cut to 1h00m, all the 1s ring keeps (asked for 2h00m); --granularity 1m "
        "reaches 1d00h\n");
  SeriesFixture slow("peer_count", "peers", 60, {1});
  slow.series.setWindowCutFromSeconds(172800);
  CHECK(seriesTable(slow.series.asReader()) ==
        "peer_count (peers), 1 samples @ 60s\n"
        "note: window cut to 1d00h, all the 1m ring keeps (asked for 2d00h)\n"
        "AGE  VALUE\n"
        "0s   1\n");
}

TEST_CASE("stats list: JSON and table") {
  capnp::MallocMessageBuilder msg;
  auto list = msg.initRoot<schema::StatsList>();
  auto metrics = list.initMetrics(2);
  metrics[0].setName("mesh_size");
  metrics[0].setUnit("nodes");
  metrics[0].setScope("node");
  metrics[1].setName("srtt_ms");
  metrics[1].setUnit("ms");
  metrics[1].setScope("peer");
  list.setFastRingSeconds(3600);
  list.setSlowRingMinutes(1440);
  list.setPeerRetentionSeconds(86400);
  CHECK(
      statsListJson(list.asReader()).dump() ==
      R"({"fast_ring_seconds":3600,"metrics":[{"name":"mesh_size","scope":"node","unit":"nodes"},)"
      R"({"name":"srtt_ms","scope":"peer","unit":"ms"}],"peer_retention_seconds":86400,)"
      R"("slow_ring_minutes":1440})");
  CHECK(statsListTable(list.asReader()) ==
        "METRIC     SCOPE  UNIT\n"
        "mesh_size  node   nodes\n"
        "srtt_ms    peer   ms\n"
        "\n"
        "1s samples kept 1h00m, 1m samples kept 1d00h, absent peers kept 1d00h\n");
}

TEST_CASE("stats peers: JSON and table") {
  capnp::MallocMessageBuilder msg;
  auto peers = msg.initRoot<schema::FipsControl::StatsPeersResults>().initPeers(1);
  peers[0].setNpub(PEER_NPUB);
  const uint8_t addr[16] = {0xab, 0xcd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
  peers[0].setNodeAddr(kj::arrayPtr(addr, 16));
  peers[0].setDisplayName("alice");
  peers[0].setIsActive(true);
  peers[0].setFirstSeenSecsAgo(125);
  peers[0].setLastContactSecsAgo(0);
  CHECK(statsPeersJson(peers.asReader()).dump() ==
        std::string(R"({"count":1,"peers":[{"display_name":"alice","first_seen_secs_ago":125,)") +
            R"("is_active":true,"last_contact_secs_ago":0,)" +
            R"("node_addr":"abcd0000000000000000000000000001","npub":")" + PEER_NPUB + R"("}]})");
  CHECK(statsPeersTable(peers.asReader()) ==
        std::string("PEER   ACTIVE  FIRST SEEN  LAST CONTACT  NPUB\n") +
            "alice  yes     2m05s ago   0s ago        " + PEER_NPUB + "\n");
  capnp::MallocMessageBuilder none;
  auto empty = none.initRoot<schema::FipsControl::StatsPeersResults>().initPeers(0);
  CHECK(statsPeersTable(empty.asReader()) == "no peers tracked in stats history\n");
  CHECK(statsPeersJson(empty.asReader()).dump() == R"({"count":0,"peers":[]})");
}

}  // namespace
}  // namespace fips::ctl
