// SPDX-License-Identifier: MIT
// Metric tables and query parsers: names round-trip, the reference's units
// and aggregations, window and granularity text with the reference's errors.
#include "router/stats/history-metric.h"

#include <doctest/doctest.h>

namespace fips::router::stats {
namespace {

TEST_CASE("metric names round-trip and unknown names are refused") {
  for (size_t i = 0; i < NODE_METRIC_COUNT; ++i) {
    const auto m = static_cast<NodeMetric>(i);
    CHECK(parseNodeMetric(info(m).name) == m);
  }
  for (size_t i = 0; i < PEER_METRIC_COUNT; ++i) {
    const auto m = static_cast<PeerMetric>(i);
    CHECK(parsePeerMetric(info(m).name) == m);
  }
  CHECK_FALSE(parseNodeMetric("bogus"));
  CHECK_FALSE(parseNodeMetric("srtt_ms"));  // per-peer only
  CHECK_FALSE(parsePeerMetric("mesh_size"));
}

TEST_CASE("units and aggregations are the reference's") {
  CHECK(info(NodeMetric::MESH_SIZE).unit == "nodes");
  CHECK(info(NodeMetric::MESH_SIZE).aggregation == Aggregation::LAST);
  CHECK(info(NodeMetric::PARENT_SWITCHES).aggregation == Aggregation::SUM);
  CHECK(info(NodeMetric::PARENT_SWITCHES).unit == "events/s");
  CHECK(info(NodeMetric::BYTES_IN).aggregation == Aggregation::MEAN);
  CHECK(info(NodeMetric::BYTES_IN).counter);
  CHECK(info(NodeMetric::LOSS_RATE).unit == "fraction");
  CHECK_FALSE(info(NodeMetric::LOSS_RATE).counter);
  CHECK(info(NodeMetric::ACTIVE_SESSIONS).aggregation == Aggregation::LAST);
  CHECK(info(PeerMetric::SRTT_MS).unit == "ms");
  CHECK(info(PeerMetric::ECN_CE).aggregation == Aggregation::SUM);
  CHECK(info(PeerMetric::PACKETS_OUT).unit == "packets/s");
}

TEST_CASE("granularity is 1s or 1m") {
  CHECK(std::get<Granularity>(parseGranularity("1s")) == Granularity::FAST);
  CHECK(std::get<Granularity>(parseGranularity("1m")) == Granularity::SLOW);
  CHECK(std::get<std::string>(parseGranularity("1h")) ==
        "unknown granularity: 1h (expected 1s or 1m)");
  CHECK(seconds(Granularity::FAST) == 1);
  CHECK(seconds(Granularity::SLOW) == 60);
  CHECK(std::get<std::string>(parseGranularity("")) == "unknown granularity:  (expected 1s or 1m)");
  CHECK(retentionSeconds(Granularity::FAST) == 3600);
  CHECK(retentionSeconds(Granularity::SLOW) == 86400);
}

TEST_CASE("window is <N>s, <N>m or <N>h") {
  CHECK(std::get<uint64_t>(parseWindow("90s")) == 90);
  CHECK(std::get<uint64_t>(parseWindow("10m")) == 600);
  CHECK(std::get<uint64_t>(parseWindow("24h")) == 86400);
  CHECK(std::get<uint64_t>(parseWindow("0s")) == 0);
  CHECK(std::get<std::string>(parseWindow("")) == "empty duration");
  CHECK(std::get<std::string>(parseWindow("m")) == "invalid duration: m");
  CHECK(std::get<std::string>(parseWindow("x5m")) == "invalid duration: x5m");
  CHECK(std::get<std::string>(parseWindow("-5m")) == "invalid duration: -5m");
  // A bare number: the unit is missing, not "0" (the reference's text).
  CHECK(std::get<std::string>(parseWindow("10")) ==
        "missing duration unit: 10 (expected <N>s, <N>m or <N>h, e.g. 10s)");
  CHECK(std::get<std::string>(parseWindow("0")) ==
        "missing duration unit: 0 (expected <N>s, <N>m or <N>h, e.g. 0s)");
  CHECK(std::get<std::string>(parseWindow("10d")) == "unknown duration unit: d (expected s, m, h)");
  CHECK(std::get<std::string>(parseWindow("99999999999999999999h")) ==
        "invalid duration: 99999999999999999999h");
  CHECK(std::get<std::string>(parseWindow("9999999999999999h")) ==
        "invalid duration: 9999999999999999h");
}

}  // namespace
}  // namespace fips::router::stats
