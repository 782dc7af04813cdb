// SPDX-License-Identifier: MIT
// Stats history documents (see stats-json.h).
#include "router/control/json/stats-json.h"

#include <cmath>

#include "router/control/json/snapshot-text.h"
#include "router/stats/history-metric.h"

namespace fips::router::control::json {

namespace {

Json valuesJson(capnp::List<double>::Reader values) {
  Json out = Json::array();
  for (double v : values) out.push_back(sampleJson(v));
  return out;
}

}  // namespace

Json sampleJson(double value) {
  return std::isfinite(value) ? Json(value) : Json(nullptr);
}

void markWindowCut(Json& doc, uint64_t windowSecs, uint64_t retentionSecs) {
  if (windowSecs <= retentionSecs) return;
  doc["window_cut_from_seconds"] = windowSecs;
  doc["retention_seconds"] = retentionSecs;
}

Json statsListJson(schema::StatsList::Reader list) {
  Json metrics = Json::array();
  for (auto m : list.getMetrics()) {
    metrics.push_back(Json{{"name", m.getName().cStr()},
                           {"scope", m.getScope().cStr()},
                           {"unit", m.getUnit().cStr()}});
  }
  return Json{{"fast_ring_seconds", list.getFastRingSeconds()},
              {"metrics", std::move(metrics)},
              {"peer_retention_seconds", list.getPeerRetentionSeconds()},
              {"slow_ring_minutes", list.getSlowRingMinutes()}};
}

Json statsPeersJson(capnp::List<schema::StatsPeer>::Reader peers) {
  Json list = Json::array();
  for (auto p : peers) {
    list.push_back(Json{{"display_name", p.getDisplayName().cStr()},
                        {"first_seen_secs_ago", p.getFirstSeenSecsAgo()},
                        {"is_active", p.getIsActive()},
                        {"last_contact_secs_ago", p.getLastContactSecsAgo()},
                        {"node_addr", hex(p.getNodeAddr())},
                        {"npub", p.getNpub().cStr()}});
  }
  return Json{{"count", peers.size()}, {"peers", std::move(list)}};
}

Json seriesJson(schema::StatsSeries::Reader series) {
  Json out{{"granularity_seconds", series.getGranularitySeconds()},
           {"metric", series.getMetric().cStr()},
           {"unit", series.getUnit().cStr()},
           {"values", valuesJson(series.getValues())}};
  if (series.getWindowCutFromSeconds() != 0) {
    markWindowCut(out, series.getWindowCutFromSeconds(),
                  series.getGranularitySeconds() == 1
                      ? stats::retentionSeconds(stats::Granularity::FAST)
                      : stats::retentionSeconds(stats::Granularity::SLOW));
  }
  return out;
}

Json allHistoryJson(schema::StatsAllHistoryResult::Reader result) {
  Json series = Json::array();
  for (auto s : result.getSeries()) series.push_back(seriesJson(s));
  return Json{
      {"granularity_seconds", result.getGranularitySeconds()},
      {"peer", result.getPeer().size() == 0 ? Json(nullptr) : Json(result.getPeer().cStr())},
      {"series", std::move(series)},
      {"window_seconds", result.getWindowSeconds()}};
}

}  // namespace fips::router::control::json
