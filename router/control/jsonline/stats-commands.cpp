// SPDX-License-Identifier: MIT
// Stats history commands of the JSON-line socket (see stats-commands.h).
#include "router/control/jsonline/stats-commands.h"

#include <optional>
#include <string>
#include <string_view>

#include <capnp/message.h>

#include "router/control/json/stats-json.h"
#include "router/control/snapshot/stats-queries.h"

namespace fips::router::control {

namespace {

// One string parameter: absent (or null, as the reference's as_str()
// reads it) leaves `value` empty; a string sets it; any other type sets
// `error` ("invalid '<field>' parameter: expected ...").
struct Param {
  std::optional<std::string> value;
  std::string error;
};

Param stringParam(const Json& params, const char* field) {
  Param param;
  if (!params.is_object()) return param;
  auto it = params.find(field);
  if (it == params.end() || it->is_null()) return param;
  if (it->is_string()) {
    param.value = it->get<std::string>();
    return param;
  }
  const std::string_view name = field;
  const char* expected = name == "metric"   ? "a string (a metric name, see show_stats_list)"
                         : name == "window" ? R"(a string "<N>s", "<N>m" or "<N>h")"
                         : name == "granularity"
                             ? R"("1s" or "1m")"
                             : "a string (an npub, a hosts-file name or a peer's alias)";
  param.error = "invalid '" + std::string(name) + "' parameter: expected " + expected;
  return param;
}

// The parameters of a stats query, each checked for its type.
struct StatsParams {
  Param metric;
  Param peer;
  Param window;
  Param granularity;
  std::string error;  // the first type error, in that order

  explicit StatsParams(const Json& params)
      : metric(stringParam(params, "metric")),
        peer(stringParam(params, "peer")),
        window(stringParam(params, "window")),
        granularity(stringParam(params, "granularity")) {
    for (const Param* p : {&metric, &peer, &window, &granularity}) {
      if (!p->error.empty()) {
        error = p->error;
        return;
      }
    }
  }

  // The peer's npub (resolveStatsPeer) replaces the name given; a name
  // that resolves to nothing stays, for the query to refuse in its order
  // of checks (metric, window, granularity, peer). True when resolved.
  bool resolvePeer(const stats::StatsHistory& history, const dns::HostMap& names) {
    if (!peer.value) return false;
    auto found = resolveStatsPeer(history, names, *peer.value);
    if (std::holds_alternative<std::string>(found)) return false;
    peer.value = std::get<StatsPeer>(found).npub;
    return true;
  }

  // Sets the capnp query's peer, window and granularity when given (c_str():
  // text with a NUL in it ends there; capnp Text holds none).
  template <typename Builder>
  void fill(Builder params) const {
    if (peer.value) params.setPeer(peer.value->c_str());
    if (window.value) params.setWindow(window.value->c_str());
    if (granularity.value) params.setGranularity(granularity.value->c_str());
  }
};

Json statsList() {
  capnp::MallocMessageBuilder message;
  auto list = message.initRoot<schema::StatsList>();
  fillStatsList(list);
  return okResponse(json::statsListJson(list.asReader()));
}

Json statsPeers(const stats::StatsHistory& history, const dns::HostMap& names) {
  capnp::MallocMessageBuilder message;
  auto results = message.initRoot<schema::FipsControl::StatsPeersResults>();
  fillStatsPeers(history, names, results);
  return okResponse(json::statsPeersJson(results.asReader().getPeers()));
}

Json statsHistory(const JsonRequest& request, const stats::StatsHistory& history,
                  const dns::HostMap& names) {
  if (request.params.is_null()) return errorResponse("missing params for show_stats_history");
  StatsParams given(request.params);
  if (!given.error.empty()) return errorResponse(given.error);
  if (!given.metric.value) return errorResponse("missing 'metric' parameter");
  const bool resolved = given.resolvePeer(history, names);
  capnp::MallocMessageBuilder in;
  auto params = in.initRoot<schema::FipsControl::StatsHistoryParams>();
  params.setMetric(given.metric.value->c_str());
  given.fill(params);
  capnp::MallocMessageBuilder out;
  auto result = out.initRoot<schema::StatsHistoryResult>();
  answerStatsHistory(history, names, params.asReader(), result);
  if (result.isError()) return errorResponse(result.getError().cStr());
  Json data = json::seriesJson(result.asReader().getSeries());
  if (resolved) data["npub"] = *given.peer.value;
  return okResponse(std::move(data));
}

Json statsAllHistory(const JsonRequest& request, const stats::StatsHistory& history,
                     const dns::HostMap& names) {
  StatsParams given(request.params);
  if (!given.error.empty()) return errorResponse(given.error);
  given.resolvePeer(history, names);
  capnp::MallocMessageBuilder in;
  auto params = in.initRoot<schema::FipsControl::StatsAllHistoryParams>();
  given.fill(params);
  capnp::MallocMessageBuilder out;
  auto result = out.initRoot<schema::StatsAllHistoryResult>();
  answerStatsAllHistory(history, names, params.asReader(), result);
  if (result.isError()) return errorResponse(result.getError().cStr());
  return okResponse(json::allHistoryJson(result.asReader()));
}

// One per-peer metric of every tracked peer (the reference's order: active
// peers first, then by display name; trackedPeers() keeps it).
Json statsHistoryAllPeers(const JsonRequest& request, const stats::StatsHistory& history,
                          const dns::HostMap& names) {
  if (request.params.is_null()) {
    return errorResponse("missing params for show_stats_history_all_peers");
  }
  const StatsParams given(request.params);
  if (!given.error.empty()) return errorResponse(given.error);
  if (!given.metric.value) return errorResponse("missing 'metric' parameter");
  const std::string& metricName = *given.metric.value;
  auto metric = stats::parsePeerMetric(metricName);
  if (!metric) return errorResponse("unknown peer metric: " + metricName);
  auto parsed = parseStatsRange(given.window.value, given.granularity.value);
  if (auto* error = std::get_if<std::string>(&parsed)) return errorResponse(*error);
  const auto range = std::get<StatsRange>(parsed);
  const stats::MetricInfo info = stats::info(*metric);
  Json peers = Json::array();
  for (const auto& peer : history.trackedPeers()) {
    auto series = history.peerQuery(peer.addr, *metric, range.windowSecs, range.granularity);
    if (!series) continue;
    Json values = Json::array();
    for (double v : series->values) values.push_back(json::sampleJson(v));
    peers.push_back(Json{{"display_name", statsPeerName(peer, names)},
                         {"is_active", peer.active},
                         {"node_addr", peer.addr.toHex()},
                         {"values", std::move(values)}});
  }
  Json data{{"granularity_seconds", stats::seconds(range.granularity)},
            {"metric", std::string(info.name)},
            {"peers", std::move(peers)},
            {"unit", std::string(info.unit)},
            {"window_seconds", range.windowSecs}};
  json::markWindowCut(data, range.windowSecs, stats::retentionSeconds(range.granularity));
  return okResponse(std::move(data));
}

}  // namespace

std::optional<Json> statsResponse(const JsonRequest& request, const stats::StatsHistory& history,
                                  const dns::HostMap& names) {
  const std::string_view command = request.command;
  if (command == "show_stats_list") return statsList();
  if (command == "show_stats_peers") return statsPeers(history, names);
  if (command == "show_stats_history") return statsHistory(request, history, names);
  if (command == "show_stats_all_history") return statsAllHistory(request, history, names);
  if (command == "show_stats_history_all_peers")
    return statsHistoryAllPeers(request, history, names);
  return std::nullopt;
}

}  // namespace fips::router::control
