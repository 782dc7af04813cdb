// SPDX-License-Identifier: MIT
// Unit tests of the JSON-line dispatcher: each read query answers with the
// same document fipsctl --json prints (router/control/json) from the
// published snapshot, the stats queries from a fixed stats history with the
// reference's parameter names, defaults and errors; connect/disconnect
// become bridge commands, with the reference's errors for missing params;
// unknown and not-yet commands.
// Test-only code.
#include "router/control/jsonline/dispatch.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <vector>

#include <capnp/message.h>
#include <capnp/serialize.h>

#include <doctest/doctest.h>

#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/nip19.h"
#include "router/control/json/command-json.h"
#include "router/control/json/mesh-json.h"
#include "router/control/json/metrics-json.h"
#include "router/control/json/mmp-json.h"
#include "router/control/json/node-json.h"
#include "router/control/json/routing-json.h"

namespace fips::router::control {
namespace {

constexpr const char* NPUB = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";

// A published snapshot: a node with one peer, one link, one transport, one
// counter, a tree, a session, a pending handshake, routing state, an
// identity cache entry and the ACL state.
struct Published {
  SnapshotCell cell;
  Published() {
    capnp::MallocMessageBuilder msg;
    auto root = msg.initRoot<schema::NodeSnapshot>();
    auto s = root.initStatus();
    s.setNpub("npub1self");
    s.setState("running");
    s.setPeerCount(1);
    auto p = root.initPeers(1)[0];
    p.setNpub(NPUB);
    p.setTransportAddr("10.99.0.2:2121");
    root.initLinks(1)[0].setRemoteAddr("10.99.0.2:2121");
    root.initTransports(1)[0].setType("udp");
    auto c = root.initCounters(1)[0];
    c.setFamily("link");
    c.setName("handshakes_out");
    c.setValue(3);
    root.initTree().setDepth(2);
    root.initBloom().setSequence(9);
    root.initCache().setMaxEntries(50);
    const std::array<uint8_t, 16> addr{0xfd, 1, 2, 3};
    auto sessions = root.initSessions();
    sessions.setCount(1);
    auto session = sessions.initSessions(1)[0];
    session.setRemoteAddr(kj::arrayPtr(addr.data(), addr.size()));
    session.setNpub(NPUB);
    session.setState("established");
    session.setPacketsSent(7);
    auto connections = root.initConnections();
    connections.setCount(1);
    auto connection = connections.initConnections(1)[0];
    connection.setLinkId(42);
    connection.setDirection("outbound");
    connection.setHandshakeState("sent_msg1");
    connection.setRemoteAddr("10.99.0.3:2121");
    auto routing = root.initRouting();
    routing.setCoordCacheEntries(4);
    auto forwarded = routing.initCounters(1)[0];
    forwarded.setFamily("forwarding");
    forwarded.setName("forwarded_packets");
    forwarded.setValue(11);
    auto identities = root.initIdentityCache();
    identities.setCount(1);
    identities.setMaxEntries(10000);
    auto identity = identities.initEntries(1)[0];
    identity.setNodeAddr(kj::arrayPtr(addr.data(), addr.size()));
    identity.setNpub(NPUB);
    identity.setIpv6(kj::arrayPtr(addr.data(), addr.size()));
    auto acl = root.initAcl();
    acl.setEffectiveMode("default_open");
    acl.setDefaultDecision("allow");
    cell.publish(msg);
  }
};

crypto::PublicKey keyOf(uint8_t tag) {
  static const crypto::Secp256k1Context ctx;
  std::array<uint8_t, 32> bytes{};
  bytes[31] = tag;
  return crypto::SecretKey::fromBytes(ctx, bytes)->publicKey();
}

// Five ticks with mesh_size 10..14, peer 1 present throughout with srtt_ms
// 20..24, peer 2 from the third tick with srtt_ms 30, 31, 32.
const stats::StatsHistory& history() {
  static const auto fixed = [] {
    auto h = std::make_unique<stats::StatsHistory>();
    for (uint64_t t = 0; t < 5; ++t) {
      stats::NodeSample node;
      node.meshSize = 10 + t;
      std::vector<stats::PeerSample> peers;
      peers.emplace_back(identity::NodeAddr::fromPublicKey(keyOf(1)), keyOf(1));
      peers.back().srttMs = 20.0 + static_cast<double>(t);
      if (t >= 2) {
        peers.emplace_back(identity::NodeAddr::fromPublicKey(keyOf(2)), keyOf(2));
        peers.back().srttMs = 28.0 + static_cast<double>(t);
      }
      h->tick(1000 * t, node, peers);
    }
    return h;
  }();
  return *fixed;
}

// The router's host map: "bobby" (a hosts-file name) is peer 1, "Carol"
// (a configured alias) peer 2.
const dns::HostMap& names() {
  static const dns::HostMap map = [] {
    dns::HostMap m;
    REQUIRE_FALSE(m.insert("bobby", identity::encodeNpub(keyOf(1))));
    REQUIRE_FALSE(m.insert("Carol", identity::encodeNpub(keyOf(2))));
    return m;
  }();
  return map;
}

Dispatch dispatch(const std::string& line, const FlatSnapshot& snapshot) {
  auto parsed = parseRequest(line);
  REQUIRE(parsed.index() == 0);
  return dispatchRequest(std::get<0>(parsed), snapshot, history(), names());
}

Json answer(const std::string& line, const FlatSnapshot& snapshot) {
  Dispatch d = dispatch(line, snapshot);
  REQUIRE(d.index() == 0);
  return std::get<0>(d);
}

BridgeRequest command(const std::string& line) {
  Dispatch d = dispatch(line, nullptr);
  REQUIRE(d.index() == 1);
  return std::get<1>(d);
}

Json error(const std::string& message) {
  return Json{{"status", "error"}, {"message", message}};
}

}  // namespace

TEST_CASE("every read query answers with fipsctl --json's document") {
  Published published;
  const FlatSnapshot snap = published.cell.latest();
  capnp::FlatArrayMessageReader reader(*snap);
  auto root = reader.getRoot<schema::NodeSnapshot>();
  const std::pair<const char*, Json> expected[] = {
      {"show_status", json::statusJson(root.getStatus())},
      {"show_peers", json::peersJson(root.getPeers())},
      {"show_links", json::linksJson(root.getLinks())},
      {"show_transports", json::transportsJson(root.getTransports())},
      {"show_tree", json::treeJson(root.getTree())},
      {"show_bloom", json::bloomJson(root.getBloom())},
      {"show_cache", json::cacheJson(root.getCache())},
      {"show_metrics", json::metricsJson(root.getCounters())},
      {"show_mmp", json::mmpJson(root.getPeers())},
      {"show_sessions", json::sessionsJson(root.getSessions())},
      {"show_connections", json::connectionsJson(root.getConnections())},
      {"show_routing", json::routingJson(root.getRouting())},
      {"show_identity_cache", json::identityCacheJson(root.getIdentityCache())},
      {"show_acl", json::aclJson(root.getAcl())},
  };
  for (const auto& [command, data] : expected) {
    const Json r = answer(std::string("{\"command\":\"") + command + "\"}", snap);
    const Json expectedResponse{{"status", "ok"}, {"data", data}};
    CHECK_MESSAGE(r == expectedResponse, command);
  }
  CHECK(answer(R"({"command":"show_status"})", snap)["data"]["npub"] == "npub1self");
  CHECK(answer(R"({"command":"show_peers"})", snap)["data"]["peers"][0]["npub"] == NPUB);
  CHECK(answer(R"({"command":"show_metrics"})", snap)["data"]["link"]["handshakes_out"] == 3);
  const Json sessions = answer(R"({"command":"show_sessions"})", snap)["data"];
  CHECK(sessions["sessions"][0]["remote_addr"] == "fd010203000000000000000000000000");
  CHECK(sessions["sessions"][0]["npub"] == NPUB);
  CHECK(sessions["sessions"][0]["stats"]["packets_sent"] == 7);
  CHECK(sessions["count"] == 1);
  const Json connections = answer(R"({"command":"show_connections"})", snap)["data"];
  CHECK(connections["connections"][0]["link_id"] == 42);
  CHECK(connections["connections"][0]["handshake_state"] == "sent_msg1");
  CHECK(connections["connections"][0]["remote_addr"] == "10.99.0.3:2121");
  CHECK_FALSE(connections["connections"][0].contains("expected_peer"));
  const Json routing = answer(R"({"command":"show_routing"})", snap)["data"];
  CHECK(routing["coord_cache_entries"] == 4);
  CHECK(routing["forwarding"]["forwarded_packets"] == 11);
  const Json identities = answer(R"({"command":"show_identity_cache"})", snap)["data"];
  CHECK(identities["entries"][0]["npub"] == NPUB);
  CHECK(identities["entries"][0]["ipv6_addr"] == "fd01:203::");
  CHECK(identities["max_entries"] == 10000);
  const Json acl = answer(R"({"command":"show_acl"})", snap)["data"];
  CHECK(acl["effective_mode"] == "default_open");
  CHECK(acl["allow_entries"] == Json::array());
  // Params on a query are ignored, as in the reference.
  CHECK(answer(R"({"command":"show_tree","params":{"x":1}})", snap)["data"]["depth"] == 2);
}

TEST_CASE("unknown, not-yet and too-early queries are errors") {
  Published published;
  const FlatSnapshot snap = published.cell.latest();
  CHECK(answer(R"({"command":"show_everything"})", snap) ==
        error("unknown command: show_everything"));
  CHECK(answer(R"({"command":""})", snap) == error("unknown command: "));
  // An nsec pasted as the command is not echoed.
  CHECK(answer(R"({"command":"nsec1qy3uxj3f"})", snap) ==
        error("unknown command: <secret key withheld>"));
  CHECK(answer(R"({"command":"show_native_flows"})", snap) ==
        error("show_native_flows: not available yet in this build"));
  CHECK(answer(R"({"command":"show_status"})", nullptr) == error("node starting: no snapshot yet"));
}

TEST_CASE("probe_start, probe_poll, probe_cancel: params checked, then a probe job request") {
  const std::string npub = identity::encodeNpub(keyOf(1));
  Dispatch start =
      dispatch(R"({"command":"probe_start","params":{"npub":")" + npub + R"("}})", nullptr);
  REQUIRE(std::holds_alternative<ProbeRequest>(start));
  CHECK(std::get<ProbeRequest>(start).kind == ProbeRequest::Kind::START);
  CHECK(std::get<ProbeRequest>(start).npub == npub);
  const Json bad = answer(R"({"command":"probe_start","params":{"npub":"npub1x"}})", nullptr);
  CHECK(bad["status"] == "error");
  CHECK(bad["message"].get<std::string>().starts_with("invalid peer npub: "));
  CHECK(answer(R"({"command":"probe_start","params":{"npub":"x"}})", nullptr) ==
        error("unknown peer 'x': not an npub, a hosts-file name or a configured peer alias"));
  CHECK(answer(R"({"command":"probe_start"})", nullptr) == error("missing params for probe_start"));
  CHECK(answer(R"({"command":"probe_start","params":{}})", nullptr) ==
        error("missing 'npub' parameter"));

  Dispatch poll = dispatch(R"({"command":"probe_poll","params":{"probe_id":7}})", nullptr);
  REQUIRE(std::holds_alternative<ProbeRequest>(poll));
  CHECK(std::get<ProbeRequest>(poll).kind == ProbeRequest::Kind::POLL);
  CHECK(std::get<ProbeRequest>(poll).id == 7);
  Dispatch cancel = dispatch(R"({"command":"probe_cancel","params":{"probe_id":3}})", nullptr);
  REQUIRE(std::holds_alternative<ProbeRequest>(cancel));
  CHECK(std::get<ProbeRequest>(cancel).kind == ProbeRequest::Kind::CANCEL);
  CHECK(std::get<ProbeRequest>(cancel).id == 3);
  // An absent or null id is missing; any other type is an invalid parameter.
  for (const char* line : {R"({"command":"probe_poll"})", R"({"command":"probe_poll","params":{}})",
                           R"({"command":"probe_cancel","params":{"probe_id":null}})"}) {
    CHECK(answer(line, nullptr) == error("missing 'probe_id' parameter"));
  }
  for (const char* id : {R"("1")", "-1", "1.5", "1e30", "true", "[1]"}) {
    for (const char* command : {"probe_poll", "probe_cancel"}) {
      const std::string line =
          std::string(R"({"command":")") + command + R"(","params":{"probe_id":)" + id + "}}";
      CHECK(answer(line, nullptr) ==
            error("invalid 'probe_id' parameter: expected a non-negative integer"));
    }
  }
  CHECK(answer(R"({"command":"probe_start","params":{"npub":5}})", nullptr) ==
        error("invalid 'npub' parameter: expected a string (an npub, a hosts-file name or a "
              "configured peer alias)"));
  CHECK(answer(R"({"command":"probe_start","params":{"npub":null}})", nullptr) ==
        error("missing 'npub' parameter"));
  // An upper-case npub goes on in its canonical lower-case form.
  std::string upper = npub;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  Dispatch startUpper =
      dispatch(R"({"command":"probe_start","params":{"npub":")" + upper + R"("}})", nullptr);
  REQUIRE(std::holds_alternative<ProbeRequest>(startUpper));
  CHECK(std::get<ProbeRequest>(startUpper).npub == npub);
}

TEST_CASE("probe_start and stats queries take a host map name (any case) as the peer") {
  const std::string p1 = identity::encodeNpub(keyOf(1));
  const std::string p2 = identity::encodeNpub(keyOf(2));
  for (const auto& [name, npub] : {std::pair{"bobby", p1}, {"BOBBY", p1}, {"carol", p2}}) {
    CAPTURE(name);
    Dispatch start = dispatch(
        std::string(R"({"command":"probe_start","params":{"npub":")") + name + "\"}}", nullptr);
    REQUIRE(std::holds_alternative<ProbeRequest>(start));
    CHECK(std::get<ProbeRequest>(start).npub == npub);
    const Json series = answer(std::string(R"({"command":"show_stats_history","params":)") +
                                   R"({"metric":"srtt_ms","window":"2s","peer":")" + name + "\"}}",
                               nullptr);
    REQUIRE(series["status"] == "ok");
    CHECK(series["data"]["npub"] == npub);
    CHECK(series["data"]["metric"] == "srtt_ms");
    const Json all = answer(std::string(R"({"command":"show_stats_all_history","params":)") +
                                R"({"window":"2s","peer":")" + name + "\"}}",
                            nullptr);
    CHECK(all["data"]["peer"] == npub);
  }
  // By npub the answer names it too; by no peer it has no npub.
  CHECK(answer(R"({"command":"show_stats_history","params":{"metric":"srtt_ms","peer":")" + p1 +
                   R"("}})",
               nullptr)["data"]["npub"] == p1);
  CHECK_FALSE(
      answer(R"({"command":"show_stats_history","params":{"metric":"mesh_size"}})", nullptr)["data"]
          .contains("npub"));
  CHECK(answer(R"({"command":"show_stats_history","params":{"metric":"srtt_ms","peer":"dave"}})",
               nullptr) ==
        error("unknown peer 'dave': not an npub, a hosts-file name or a configured peer alias"));
}

TEST_CASE("stats queries: the reference's names, params, defaults and errors") {
  const std::string p1 = identity::encodeNpub(keyOf(1));
  const std::string p2 = identity::encodeNpub(keyOf(2));
  const Json list = answer(R"({"command":"show_stats_list"})", nullptr)["data"];
  CHECK(list["fast_ring_seconds"] == 3600);
  CHECK(list["metrics"][0] == Json{{"name", "mesh_size"}, {"scope", "node"}, {"unit", "nodes"}});

  const Json peers = answer(R"({"command":"show_stats_peers"})", nullptr)["data"];
  REQUIRE(peers["count"] == 2);
  CHECK(peers["peers"][0]["npub"] == p1);
  CHECK(peers["peers"][1]["npub"] == p2);

  // Node metric, default window 10m at 1s: 600 samples, the last five set.
  const Json mesh =
      answer(R"({"command":"show_stats_history","params":{"metric":"mesh_size"}})", nullptr);
  REQUIRE(mesh["status"] == "ok");
  CHECK(mesh["data"]["metric"] == "mesh_size");
  CHECK(mesh["data"]["unit"] == "nodes");
  CHECK(mesh["data"]["granularity_seconds"] == 1);
  REQUIRE(mesh["data"]["values"].size() == 600);
  CHECK(mesh["data"]["values"][599] == 14.0);
  CHECK(mesh["data"]["values"][595] == 10.0);
  CHECK(mesh["data"]["values"][594].is_null());

  const Json srtt = answer(R"({"command":"show_stats_history","params":{"metric":"srtt_ms",)"
                           R"("window":"3s","peer":")" +
                               p1 + "\"}}",
                           nullptr);
  CHECK(srtt["data"]["values"] == Json{22.0, 23.0, 24.0});

  const Json all =
      answer(R"({"command":"show_stats_all_history","params":{"window":"2s","granularity":"1s"}})",
             nullptr)["data"];
  CHECK(all["granularity_seconds"] == 1);
  CHECK(all["window_seconds"] == 2);
  CHECK(all["peer"].is_null());
  CHECK(all["series"][0]["metric"] == "mesh_size");
  CHECK(all["series"][0]["values"] == Json{13.0, 14.0});
  // No params: every default.
  CHECK(answer(R"({"command":"show_stats_all_history"})", nullptr)["data"]["window_seconds"] ==
        600);
  const Json onePeer = answer(
      R"({"command":"show_stats_all_history","params":{"peer":")" + p2 + R"(","window":"2s"}})",
      nullptr)["data"];
  CHECK(onePeer["peer"] == p2);
  CHECK(onePeer["series"][0]["metric"] == "srtt_ms");

  const Json byPeer = answer(
      R"({"command":"show_stats_history_all_peers","params":{"metric":"srtt_ms","window":"3s"}})",
      nullptr)["data"];
  CHECK(byPeer["metric"] == "srtt_ms");
  CHECK(byPeer["unit"] == "ms");
  CHECK(byPeer["window_seconds"] == 3);
  REQUIRE(byPeer["peers"].size() == 2);
  CHECK(byPeer["peers"][0]["node_addr"] == identity::NodeAddr::fromPublicKey(keyOf(1)).toHex());
  CHECK(byPeer["peers"][0]["is_active"] == true);
  CHECK(byPeer["peers"][0]["values"] == Json{22.0, 23.0, 24.0});
  CHECK(byPeer["peers"][1]["values"] == Json{30.0, 31.0, 32.0});

  auto err = [](const std::string& line) { return answer(line, nullptr); };
  CHECK(err(R"({"command":"show_stats_history"})") ==
        error("missing params for show_stats_history"));
  CHECK(err(R"({"command":"show_stats_history","params":{}})") ==
        error("missing 'metric' parameter"));
  CHECK(err(R"({"command":"show_stats_history","params":{"metric":"nope"}})") ==
        error("unknown metric: nope"));
  CHECK(err(R"({"command":"show_stats_history","params":{"metric":"mesh_size","window":"1d"}})") ==
        error("unknown duration unit: d (expected s, m, h)"));
  CHECK(err(R"({"command":"show_stats_history","params":{"metric":"mesh_size",)"
            R"("granularity":"5s"}})") == error("unknown granularity: 5s (expected 1s or 1m)"));
  CHECK(err(R"({"command":"show_stats_history_all_peers"})") ==
        error("missing params for show_stats_history_all_peers"));
  CHECK(err(R"({"command":"show_stats_history_all_peers","params":{"metric":"mesh_size"}})") ==
        error("unknown peer metric: mesh_size"));
  CHECK(err(R"({"command":"show_stats_history_all_peers","params":{"window":"1s"}})") ==
        error("missing 'metric' parameter"));
}

TEST_CASE("stats queries: parameters of the wrong type, a missing peer, a cut window") {
  auto err = [](const std::string& line) { return answer(line, nullptr); };
  CHECK(
      err(R"({"command":"show_stats_history","params":{"metric":7}})") ==
      error("invalid 'metric' parameter: expected a string (a metric name, see show_stats_list)"));
  CHECK(err(R"({"command":"show_stats_history","params":{"metric":"mesh_size","window":10}})") ==
        error("invalid 'window' parameter: expected a string \"<N>s\", \"<N>m\" or \"<N>h\""));
  CHECK(err(R"({"command":"show_stats_history","params":{"metric":"mesh_size",)"
            R"("granularity":1}})") ==
        error("invalid 'granularity' parameter: expected \"1s\" or \"1m\""));
  CHECK(err(R"({"command":"show_stats_history","params":{"metric":"srtt_ms","peer":1}})") ==
        error("invalid 'peer' parameter: expected a string (an npub, a hosts-file name or a "
              "peer's alias)"));
  CHECK(err(R"({"command":"show_stats_all_history","params":{"window":600}})") ==
        error("invalid 'window' parameter: expected a string \"<N>s\", \"<N>m\" or \"<N>h\""));
  CHECK(
      err(R"({"command":"show_stats_history_all_peers","params":{"metric":[]}})") ==
      error("invalid 'metric' parameter: expected a string (a metric name, see show_stats_list)"));
  CHECK(err(R"({"command":"show_stats_history_all_peers","params":{"metric":"srtt_ms",)"
            R"("granularity":60}})") ==
        error("invalid 'granularity' parameter: expected \"1s\" or \"1m\""));
  // null is absent (the default), as the reference's as_str() reads it.
  CHECK(err(R"({"command":"show_stats_history","params":{"metric":"mesh_size","window":null}})")
            ["data"]["values"]
                .size() == 600);
  CHECK(err(R"({"command":"show_stats_history","params":{"metric":"srtt_ms"}})") ==
        error("srtt_ms is a per-peer metric: give a peer (an npub, a hosts-file name or a "
              "peer's alias)"));
  CHECK(err(R"({"command":"show_stats_history","params":{"metric":"mesh_size","window":""}})") ==
        error("empty duration"));
  CHECK(err(R"({"command":"show_stats_history","params":{"metric":"mesh_size",)"
            R"("granularity":""}})") == error("unknown granularity:  (expected 1s or 1m)"));
  CHECK(err(R"({"command":"show_stats_history","params":{"metric":"mesh_size","window":"10"}})") ==
        error("missing duration unit: 10 (expected <N>s, <N>m or <N>h, e.g. 10s)"));
  const Json cut =
      err(R"({"command":"show_stats_history","params":{"metric":"mesh_size","window":"2h"}})");
  CHECK(cut["data"]["values"].size() == 3600);
  CHECK(cut["data"]["window_cut_from_seconds"] == 7200);
  CHECK(cut["data"]["retention_seconds"] == 3600);
  const Json uncut =
      err(R"({"command":"show_stats_history","params":{"metric":"mesh_size","window":"1h"}})");
  CHECK_FALSE(uncut["data"].contains("window_cut_from_seconds"));
  const Json byPeer = err(
      R"({"command":"show_stats_history_all_peers","params":{"metric":"srtt_ms","window":"3h"}})");
  CHECK(byPeer["data"]["window_seconds"] == 10800);
  CHECK(byPeer["data"]["window_cut_from_seconds"] == 10800);
  CHECK(byPeer["data"]["retention_seconds"] == 3600);
  CHECK(byPeer["data"]["peers"][0]["values"].size() == 3600);
}

TEST_CASE("connect and disconnect become bridge commands") {
  BridgeRequest c = command(
      R"({"command":"connect","params":{"npub":"npub1a","address":"10.0.0.1:2121","transport":"udp","x":0}})");
  CHECK(c.kind == BridgeRequest::Kind::CONNECT);
  CHECK(c.npub == "npub1a");
  CHECK(c.address == "10.0.0.1:2121");
  CHECK(c.transport == "udp");

  BridgeRequest d = command(R"({"command":"disconnect","params":{"npub":"npub1a"}})");
  CHECK(d.kind == BridgeRequest::Kind::DISCONNECT);
  CHECK(d.npub == "npub1a");

  capnp::MallocMessageBuilder msg;
  auto built = msg.initRoot<schema::ControlCommand>();
  fillCommand(c, built);
  REQUIRE(built.isConnect());
  CHECK(built.getConnect().getAddress() == "10.0.0.1:2121");
  fillCommand(d, built);
  REQUIRE(built.isDisconnect());
  CHECK(built.getDisconnect().getNpub() == "npub1a");
}

TEST_CASE("connect and disconnect with missing params: the reference's errors") {
  auto err = [](const std::string& line) { return answer(line, nullptr); };
  CHECK(err(R"({"command":"connect"})") == error("missing params for connect"));
  CHECK(err(R"({"command":"connect","params":null})") == error("missing params for connect"));
  CHECK(err(R"({"command":"disconnect"})") == error("missing params for disconnect"));
  CHECK(err(R"({"command":"connect","params":{}})") == error("missing 'npub' parameter"));
  CHECK(err(R"({"command":"connect","params":{"npub":"n"}})") ==
        error("missing 'address' parameter"));
  CHECK(err(R"({"command":"connect","params":{"npub":"n","address":"a"}})") ==
        error("missing 'transport' parameter"));
  CHECK(err(R"({"command":"connect","params":{"npub":5,"address":"a","transport":"udp"}})") ==
        error("missing 'npub' parameter"));
  CHECK(err(R"({"command":"disconnect","params":"npub1a"})") == error("missing 'npub' parameter"));
}

TEST_CASE("connect's answer: fipsctl's text and JSON say the same") {
  const json::ConnectAnswer dialing{false, false, true, "retry_backoff"};
  CHECK(json::connectText("npub1a", "10.0.0.9:2121", "udp", dialing) ==
        "already connecting to npub1a (waiting to redial); nothing changed: 10.0.0.9:2121 was not "
        "dialed");
  CHECK(json::connectJson("npub1a", "10.0.0.9:2121", "udp", dialing) ==
        Json{{"npub", "npub1a"},
             {"address", nullptr},
             {"transport", nullptr},
             {"refreshed", false},
             {"already_connected", false},
             {"already_connecting", true},
             {"dial_state", "retry_backoff"},
             {"message", json::connectText("npub1a", "10.0.0.9:2121", "udp", dialing)}});
  const json::ConnectAnswer started{false, false, false, "resolving"};
  CHECK(json::connectText("npub1a", "peer.example:2121", "udp", started) ==
        "connecting to npub1a at peer.example:2121 over udp (looking up its host name)");
  CHECK(json::connectJson("npub1a", "peer.example:2121", "udp", started)["address"] ==
        "peer.example:2121");
  CHECK_FALSE(json::connectJson("npub1a", "peer.example:2121", "udp", started).contains("message"));
  const json::ConnectAnswer linked{false, true, false, ""};
  CHECK(json::connectText("npub1a", "10.0.0.9:2121", "udp", linked) ==
        "already connected to npub1a at 10.0.0.9:2121 over udp; nothing to do");
}

TEST_CASE("a command's outcome becomes the reference's response") {
  BridgeRequest c = command(
      R"({"command":"connect","params":{"npub":"npub1a","address":"10.0.0.1:2121","transport":"udp"}})");
  CommandOutcome ok;
  ok.ok = true;
  CHECK(bridgeResponse(c, ok) == Json{{"status", "ok"},
                                      {"data",
                                       {{"npub", "npub1a"},
                                        {"address", "10.0.0.1:2121"},
                                        {"transport", "udp"},
                                        {"refreshed", false},
                                        {"already_connected", false},
                                        {"already_connecting", false}}}});
  CommandOutcome linked;
  linked.ok = true;
  linked.alreadyConnected = true;
  CHECK(bridgeResponse(c, linked)["data"]["already_connected"] == true);
  CommandOutcome dialing;
  dialing.ok = true;
  dialing.alreadyConnecting = true;
  dialing.dialState = "handshake";
  CHECK(bridgeResponse(c, dialing)["data"]["already_connecting"] == true);
  CHECK(bridgeResponse(c, dialing)["data"]["already_connected"] == false);
  CHECK(bridgeResponse(c, dialing)["data"]["dial_state"] == "handshake");
  // The address asked for was not dialed: not echoed as if it were.
  CHECK(bridgeResponse(c, dialing)["data"]["address"].is_null());
  CHECK(bridgeResponse(c, dialing)["data"]["transport"].is_null());
  CHECK(bridgeResponse(c, dialing)["data"]["message"] ==
        "already connecting to npub1a (handshake in progress); nothing changed: 10.0.0.1:2121 was "
        "not dialed");
  BridgeRequest d = command(R"({"command":"disconnect","params":{"npub":"npub1a"}})");
  CHECK(bridgeResponse(d, ok) ==
        Json{{"status", "ok"},
             {"data", {{"npub", "npub1a"}, {"disconnected", true}, {"dial_cancelled", false}}}});
  CommandOutcome cancelled;
  cancelled.ok = true;
  cancelled.dialCancelled = true;
  cancelled.dialState = "retry_backoff";
  CHECK(bridgeResponse(d, cancelled) == Json{{"status", "ok"},
                                             {"data",
                                              {{"npub", "npub1a"},
                                               {"disconnected", true},
                                               {"dial_cancelled", true},
                                               {"dial_state", "retry_backoff"}}}});
  // An alias or hosts-file name: the npub the router resolved it to.
  BridgeRequest byAlias = command(
      R"({"command":"connect","params":{"npub":"bob","address":"10.0.0.1:2121","transport":"udp"}})");
  CommandOutcome resolved;
  resolved.ok = true;
  resolved.npub = "npub1b";
  CHECK(bridgeResponse(byAlias, resolved)["data"]["npub"] == "npub1b");
  BridgeRequest dropAlias = command(R"({"command":"disconnect","params":{"npub":"bob"}})");
  CHECK(bridgeResponse(dropAlias, resolved)["data"]["npub"] == "npub1b");
  CommandOutcome refused;
  refused.error = "peer not found: npub1a";
  CHECK(bridgeResponse(d, refused) == error("peer not found: npub1a"));
}

}  // namespace fips::router::control
