// SPDX-License-Identifier: MIT
// JSON-line request dispatch (see dispatch.h).
#include "router/control/jsonline/dispatch.h"

#include <array>
#include <optional>
#include <string_view>

#include <capnp/serialize.h>

#include "lib/identity/nip19.h"
#include "router/control/json/command-json.h"
#include "router/control/json/mesh-json.h"
#include "router/control/json/metrics-json.h"
#include "router/control/json/mmp-json.h"
#include "router/control/json/node-json.h"
#include "router/control/json/routing-json.h"
#include "router/control/jsonline/stats-commands.h"
#include "router/dns/peer-name.h"

namespace fips::router::control {

namespace {

using Snapshot = schema::NodeSnapshot::Reader;

// A read query and the document it answers with.
struct Query {
  std::string_view command;
  Json (*render)(Snapshot snapshot);
};

constexpr std::array<Query, 14> QUERIES{{
    {"show_status", [](Snapshot s) { return json::statusJson(s.getStatus()); }},
    {"show_peers", [](Snapshot s) { return json::peersJson(s.getPeers()); }},
    {"show_links", [](Snapshot s) { return json::linksJson(s.getLinks()); }},
    {"show_transports", [](Snapshot s) { return json::transportsJson(s.getTransports()); }},
    {"show_tree", [](Snapshot s) { return json::treeJson(s.getTree()); }},
    {"show_bloom", [](Snapshot s) { return json::bloomJson(s.getBloom()); }},
    {"show_cache", [](Snapshot s) { return json::cacheJson(s.getCache()); }},
    {"show_metrics", [](Snapshot s) { return json::metricsJson(s.getCounters()); }},
    {"show_mmp", [](Snapshot s) { return json::mmpJson(s.getPeers()); }},
    {"show_sessions", [](Snapshot s) { return json::sessionsJson(s.getSessions()); }},
    {"show_connections", [](Snapshot s) { return json::connectionsJson(s.getConnections()); }},
    {"show_routing", [](Snapshot s) { return json::routingJson(s.getRouting()); }},
    {"show_identity_cache",
     [](Snapshot s) { return json::identityCacheJson(s.getIdentityCache()); }},
    {"show_acl", [](Snapshot s) { return json::aclJson(s.getAcl()); }},
}};

// The reference's commands (docs/reference/control-socket.md) whose layer
// this build does not have yet (issue #7).
constexpr std::array<std::string_view, 2> NOT_YET{{
    "show_native_flows",
    "show_listening_sockets",
}};

// params[field] as a string, or nullopt (absent, null or another type: the
// reference's as_str()).
std::optional<std::string> stringParam(const Json& params, const char* field) {
  if (!params.is_object()) return std::nullopt;
  auto it = params.find(field);
  if (it == params.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

Json missing(const char* field) {
  return errorResponse(std::string("missing '") + field + "' parameter");
}

Dispatch connectRequest(const JsonRequest& request) {
  if (request.params.is_null()) return errorResponse("missing params for connect");
  BridgeRequest out;
  out.kind = BridgeRequest::Kind::CONNECT;
  auto npub = stringParam(request.params, "npub");
  if (!npub) return missing("npub");
  auto address = stringParam(request.params, "address");
  if (!address) return missing("address");
  auto transport = stringParam(request.params, "transport");
  if (!transport) return missing("transport");
  out.npub = std::move(*npub);
  out.address = std::move(*address);
  out.transport = std::move(*transport);
  return out;
}

Dispatch disconnectRequest(const JsonRequest& request) {
  if (request.params.is_null()) return errorResponse("missing params for disconnect");
  auto npub = stringParam(request.params, "npub");
  if (!npub) return missing("npub");
  BridgeRequest out;
  out.kind = BridgeRequest::Kind::DISCONNECT;
  out.npub = std::move(*npub);
  return out;
}

// A probe parameter that is present but of the wrong type: absent or null
// is "missing '<field>' parameter", another type "invalid '<field>'
// parameter: expected <expected>" (as the stats queries say).
Json badParam(const Json& params, const char* field, const char* expected) {
  if (!params.is_object()) return missing(field);
  auto it = params.find(field);
  if (it == params.end() || it->is_null()) return missing(field);
  return errorResponse(std::string("invalid '") + field + "' parameter: expected " + expected);
}

// The target as fipsctl probe takes it: an npub, or a name of the host map
// (hosts file, configured alias); passed on as its canonical npub.
Dispatch probeStart(const JsonRequest& request, const dns::HostMap& names) {
  if (request.params.is_null()) return errorResponse("missing params for probe_start");
  auto npub = stringParam(request.params, "npub");
  if (!npub) {
    return badParam(request.params, "npub",
                    "a string (an npub, a hosts-file name or a configured peer alias)");
  }
  const auto key = dns::resolvePeerName(*npub, names);
  if (const auto* error = std::get_if<dns::PeerNameError>(&key)) {
    return errorResponse(error->badNpub ? "invalid peer npub: " + error->text : error->text);
  }
  return ProbeRequest{ProbeRequest::Kind::START,
                      identity::encodeNpub(std::get<crypto::PublicKey>(key)), 0};
}

// probe_poll, probe_cancel: params.probe_id as an unsigned integer (the
// reference's as_u64()); a string, a negative, a fraction or a number
// beyond 2^64 is an invalid parameter.
Dispatch probeById(const JsonRequest& request, ProbeRequest::Kind kind) {
  if (request.params.is_object()) {
    auto it = request.params.find("probe_id");
    if (it != request.params.end() && it->is_number_unsigned()) {
      return ProbeRequest{kind, "", it->get<uint64_t>()};
    }
  }
  return badParam(request.params, "probe_id", "a non-negative integer");
}

}  // namespace

Dispatch dispatchRequest(const JsonRequest& request, const FlatSnapshot& snapshot,
                         const stats::StatsHistory& history, const dns::HostMap& names) {
  if (request.command == "connect") return connectRequest(request);
  if (request.command == "disconnect") return disconnectRequest(request);
  if (request.command == "probe_start") return probeStart(request, names);
  if (request.command == "probe_poll") return probeById(request, ProbeRequest::Kind::POLL);
  if (request.command == "probe_cancel") return probeById(request, ProbeRequest::Kind::CANCEL);
  if (auto answered = statsResponse(request, history, names)) return std::move(*answered);
  for (const Query& query : QUERIES) {
    if (request.command != query.command) continue;
    if (snapshot == nullptr) return errorResponse("node starting: no snapshot yet");
    capnp::FlatArrayMessageReader reader(*snapshot);
    return okResponse(query.render(reader.getRoot<schema::NodeSnapshot>()));
  }
  for (std::string_view name : NOT_YET) {
    if (request.command == name) {
      return errorResponse(request.command + ": not available yet in this build");
    }
  }
  return errorResponse("unknown command: " + request.command);
}

Json bridgeResponse(const BridgeRequest& request, const CommandOutcome& outcome) {
  if (!outcome.ok) return errorResponse(outcome.error);
  // The peer as the router resolved it (an alias or hosts-file name as its npub).
  const std::string& npub = outcome.npub.empty() ? request.npub : outcome.npub;
  if (request.kind == BridgeRequest::Kind::DISCONNECT) {
    Json data{{"npub", npub}, {"disconnected", true}, {"dial_cancelled", outcome.dialCancelled}};
    if (outcome.dialCancelled) data["dial_state"] = outcome.dialState;
    return okResponse(data);
  }
  return okResponse(json::connectJson(
      npub, request.address, request.transport,
      {outcome.refreshed, outcome.alreadyConnected, outcome.alreadyConnecting, outcome.dialState}));
}

void fillCommand(const BridgeRequest& request, schema::ControlCommand::Builder command) {
  if (request.kind == BridgeRequest::Kind::DISCONNECT) {
    command.initDisconnect().setNpub(request.npub.c_str());
    return;
  }
  auto connect = command.initConnect();
  // c_str(): text with a NUL in it ends there (capnp Text holds none).
  connect.setNpub(request.npub.c_str());
  connect.setAddress(request.address.c_str());
  connect.setTransport(request.transport.c_str());
}

}  // namespace fips::router::control
