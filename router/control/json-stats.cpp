// SPDX-License-Identifier: MIT
// Stats history commands of the JSON-line socket (see json-stats.h).
#include "router/control/json-stats.h"

#include <cmath>
#include <string>
#include <string_view>

#include <capnp/message.h>

#include "router/control/json/stats-json.h"
#include "router/control/stats-queries.h"

namespace fips::router::control {

namespace {

// params[field] when it is a string (the reference's as_str()), else "".
std::string text(const Json& params, const char* field) {
  if (!params.is_object()) return "";
  auto it = params.find(field);
  return it != params.end() && it->is_string() ? it->get<std::string>() : "";
}

bool hasText(const Json& params, const char* field) {
  if (!params.is_object()) return false;
  auto it = params.find(field);
  return it != params.end() && it->is_string();
}

Json statsList() {
  capnp::MallocMessageBuilder message;
  auto list = message.initRoot<schema::StatsList>();
  fillStatsList(list);
  return okResponse(json::statsListJson(list.asReader()));
}

Json statsPeers(const stats::StatsHistory& history) {
  capnp::MallocMessageBuilder message;
  auto results = message.initRoot<schema::FipsControl::StatsPeersResults>();
  fillStatsPeers(history, results);
  return okResponse(json::statsPeersJson(results.asReader().getPeers()));
}

Json statsHistory(const JsonRequest& request, const stats::StatsHistory& history) {
  if (request.params.is_null()) return errorResponse("missing params for show_stats_history");
  if (!hasText(request.params, "metric")) return errorResponse("missing 'metric' parameter");
  capnp::MallocMessageBuilder in;
  auto params = in.initRoot<schema::FipsControl::StatsHistoryParams>();
  // c_str(): text with a NUL in it ends there (capnp Text holds none).
  params.setMetric(text(request.params, "metric").c_str());
  params.setPeer(text(request.params, "peer").c_str());
  params.setWindow(text(request.params, "window").c_str());
  params.setGranularity(text(request.params, "granularity").c_str());
  capnp::MallocMessageBuilder out;
  auto result = out.initRoot<schema::StatsHistoryResult>();
  answerStatsHistory(history, params.asReader(), result);
  if (result.isError()) return errorResponse(result.getError().cStr());
  return okResponse(json::seriesJson(result.asReader().getSeries()));
}

Json statsAllHistory(const JsonRequest& request, const stats::StatsHistory& history) {
  capnp::MallocMessageBuilder in;
  auto params = in.initRoot<schema::FipsControl::StatsAllHistoryParams>();
  params.setPeer(text(request.params, "peer").c_str());
  params.setWindow(text(request.params, "window").c_str());
  params.setGranularity(text(request.params, "granularity").c_str());
  capnp::MallocMessageBuilder out;
  auto result = out.initRoot<schema::StatsAllHistoryResult>();
  answerStatsAllHistory(history, params.asReader(), result);
  if (result.isError()) return errorResponse(result.getError().cStr());
  return okResponse(json::allHistoryJson(result.asReader()));
}

// One per-peer metric of every tracked peer (the reference's order: active
// peers first, then by display name; trackedPeers() keeps it).
Json statsHistoryAllPeers(const JsonRequest& request, const stats::StatsHistory& history) {
  if (request.params.is_null()) {
    return errorResponse("missing params for show_stats_history_all_peers");
  }
  if (!hasText(request.params, "metric")) return errorResponse("missing 'metric' parameter");
  const std::string metricName = text(request.params, "metric");
  auto metric = stats::parsePeerMetric(metricName);
  if (!metric) return errorResponse("unknown peer metric: " + metricName);
  const std::string window =
      hasText(request.params, "window") ? text(request.params, "window") : std::string("10m");
  auto windowSecs = stats::parseWindow(window);
  if (auto* error = std::get_if<std::string>(&windowSecs)) return errorResponse(*error);
  const std::string granularityText =
      hasText(request.params, "granularity") ? text(request.params, "granularity") : "1s";
  auto granularity = stats::parseGranularity(granularityText);
  if (auto* error = std::get_if<std::string>(&granularity)) return errorResponse(*error);
  const stats::MetricInfo info = stats::info(*metric);
  Json peers = Json::array();
  for (const auto& peer : history.trackedPeers()) {
    auto series = history.peerQuery(peer.addr, *metric, std::get<uint64_t>(windowSecs),
                                    std::get<stats::Granularity>(granularity));
    if (!series) continue;
    Json values = Json::array();
    for (double v : series->values) values.push_back(std::isfinite(v) ? Json(v) : Json(nullptr));
    peers.push_back(Json{{"display_name", peer.displayName},
                         {"is_active", peer.active},
                         {"node_addr", peer.addr.toHex()},
                         {"values", std::move(values)}});
  }
  return okResponse(
      Json{{"granularity_seconds", stats::seconds(std::get<stats::Granularity>(granularity))},
           {"metric", std::string(info.name)},
           {"peers", std::move(peers)},
           {"unit", std::string(info.unit)},
           {"window_seconds", std::get<uint64_t>(windowSecs)}});
}

}  // namespace

std::optional<Json> statsResponse(const JsonRequest& request, const stats::StatsHistory& history) {
  const std::string_view command = request.command;
  if (command == "show_stats_list") return statsList();
  if (command == "show_stats_peers") return statsPeers(history);
  if (command == "show_stats_history") return statsHistory(request, history);
  if (command == "show_stats_all_history") return statsAllHistory(request, history);
  if (command == "show_stats_history_all_peers") return statsHistoryAllPeers(request, history);
  return std::nullopt;
}

}  // namespace fips::router::control
