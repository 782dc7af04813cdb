// SPDX-License-Identifier: MIT
// The metrics the stats history records (the reference's
// src/node/stats_history.rs): node-level and per-peer metric names, units,
// how 60 one-second samples fold into one minute sample, ring sizes, and
// the parsers for a query's metric, window and granularity. Used in
// fips-router (both threads) and fipsctl; parsed text comes from local
// control clients.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace fips::router::stats {

// Fast ring: one sample per tick (1 s) for an hour.
constexpr size_t FAST_RING_CAPACITY = 3600;
// Slow ring: one sample per minute for a day.
constexpr size_t SLOW_RING_CAPACITY = 1440;
// Fast samples folded into one slow sample.
constexpr size_t DOWNSAMPLE_FACTOR = 60;
// A peer absent from every tick for this long is forgotten (seconds).
constexpr uint64_t PEER_EVICTION_SECS = 24 * 3600;

// How a minute of fast samples becomes one slow sample. Gaps (NaN) are
// skipped; a minute of gaps only is a gap.
enum class Aggregation : uint8_t { LAST, SUM, MEAN };

// Node-level metrics, in the reference's order (stats list, fipstop).
enum class NodeMetric : uint8_t {
  MESH_SIZE,
  TREE_DEPTH,
  PEER_COUNT,
  PARENT_SWITCHES,
  BYTES_IN,
  BYTES_OUT,
  PACKETS_IN,
  PACKETS_OUT,
  LOSS_RATE,
  ACTIVE_SESSIONS,
};
constexpr size_t NODE_METRIC_COUNT = 10;

// Per-peer metrics, in the reference's order.
enum class PeerMetric : uint8_t {
  SRTT_MS,
  LOSS_RATE,
  BYTES_IN,
  BYTES_OUT,
  PACKETS_IN,
  PACKETS_OUT,
  ECN_CE,
};
constexpr size_t PEER_METRIC_COUNT = 7;

struct MetricInfo {
  std::string_view name;  // "mesh_size", the reference's wire name
  std::string_view unit;  // "nodes", "bytes/s", ...
  Aggregation aggregation;
  bool counter;  // sampled as the per-tick delta of a monotonic total
};

const MetricInfo& info(NodeMetric metric);
const MetricInfo& info(PeerMetric metric);

std::optional<NodeMetric> parseNodeMetric(std::string_view name);
std::optional<PeerMetric> parsePeerMetric(std::string_view name);

// Which ring a query reads: FAST (1 s samples) or SLOW (1 min samples).
enum class Granularity : uint8_t { FAST, SLOW };

// Seconds per sample: 1 or 60.
uint32_t seconds(Granularity granularity);

// How far back the ring of `granularity` reaches: 3600 s (1 s ring) or
// 86,400 s (1 min ring). A longer window is served cut to it.
constexpr uint64_t retentionSeconds(Granularity granularity) {
  return granularity == Granularity::FAST ? FAST_RING_CAPACITY : SLOW_RING_CAPACITY * 60;
}

// "1s" or "1m"; otherwise the reference's error text.
std::variant<Granularity, std::string> parseGranularity(std::string_view text);

// "<N>s", "<N>m" or "<N>h" as seconds; otherwise the reference's error text
// ("empty duration", "invalid duration: X", "unknown duration unit: u
// (expected s, m, h)"), but a bare number (no unit; the reference says
// "unknown duration unit: <last digit>") says "missing duration unit: N
// (expected <N>s, <N>m or <N>h, e.g. Ns)".
std::variant<uint64_t, std::string> parseWindow(std::string_view text);

}  // namespace fips::router::stats
