// SPDX-License-Identifier: MIT
// Stats history metric tables and query parsers (see history-metric.h).
#include "router/stats/history-metric.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

namespace fips::router::stats {

namespace {

using A = Aggregation;

// Units and aggregations as the reference's Metric/PeerMetric.
constexpr std::array<MetricInfo, NODE_METRIC_COUNT> NODE_METRICS{{
    {"mesh_size", "nodes", A::LAST, false},
    {"tree_depth", "hops", A::LAST, false},
    {"peer_count", "peers", A::LAST, false},
    {"parent_switches", "events/s", A::SUM, true},
    {"bytes_in", "bytes/s", A::MEAN, true},
    {"bytes_out", "bytes/s", A::MEAN, true},
    {"packets_in", "packets/s", A::MEAN, true},
    {"packets_out", "packets/s", A::MEAN, true},
    {"loss_rate", "fraction", A::MEAN, false},
    {"active_sessions", "sessions", A::LAST, false},
}};

constexpr std::array<MetricInfo, PEER_METRIC_COUNT> PEER_METRICS{{
    {"srtt_ms", "ms", A::MEAN, false},
    {"loss_rate", "fraction", A::MEAN, false},
    {"bytes_in", "bytes/s", A::MEAN, true},
    {"bytes_out", "bytes/s", A::MEAN, true},
    {"packets_in", "packets/s", A::MEAN, true},
    {"packets_out", "packets/s", A::MEAN, true},
    {"ecn_ce", "events/s", A::SUM, true},
}};

template <typename Metric, size_t N>
std::optional<Metric> parse(const std::array<MetricInfo, N>& table, std::string_view name) {
  for (size_t i = 0; i < N; ++i) {
    if (table[i].name == name) return static_cast<Metric>(i);
  }
  return std::nullopt;
}

}  // namespace

const MetricInfo& info(NodeMetric metric) {
  return NODE_METRICS[static_cast<size_t>(metric)];
}

const MetricInfo& info(PeerMetric metric) {
  return PEER_METRICS[static_cast<size_t>(metric)];
}

std::optional<NodeMetric> parseNodeMetric(std::string_view name) {
  return parse<NodeMetric>(NODE_METRICS, name);
}

std::optional<PeerMetric> parsePeerMetric(std::string_view name) {
  return parse<PeerMetric>(PEER_METRICS, name);
}

uint32_t seconds(Granularity granularity) {
  return granularity == Granularity::FAST ? 1 : 60;
}

std::variant<Granularity, std::string> parseGranularity(std::string_view text) {
  if (text == "1s") return Granularity::FAST;
  if (text == "1m") return Granularity::SLOW;
  return "unknown granularity: " + std::string(text) + " (expected 1s or 1m)";
}

std::variant<uint64_t, std::string> parseWindow(std::string_view text) {
  if (text.empty()) return std::string("empty duration");
  if (std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return "missing duration unit: " + std::string(text) + " (expected <N>s, <N>m or <N>h, e.g. " +
           std::string(text) + "s)";
  }
  const std::string_view digits = text.substr(0, text.size() - 1);
  const char unit = text.back();
  uint64_t n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
    return "invalid duration: " + std::string(text);
  }
  uint64_t scale = 0;
  switch (unit) {
    case 's':
      scale = 1;
      break;
    case 'm':
      scale = 60;
      break;
    case 'h':
      scale = 3600;
      break;
    default:
      return "unknown duration unit: " + std::string(1, unit) + " (expected s, m, h)";
  }
  if (n > std::numeric_limits<uint64_t>::max() / scale) {
    return "invalid duration: " + std::string(text);
  }
  return n * scale;
}

}  // namespace fips::router::stats
