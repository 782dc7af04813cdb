// SPDX-License-Identifier: MIT
// Unit tests of the JSON-line dispatcher: each read query answers with the
// same document fipsctl --json prints (router/control/json) from the
// published snapshot; connect/disconnect become bridge commands, with the
// reference's errors for missing params; unknown and not-yet commands.
// Test-only code.
#include "router/control/json-dispatch.h"

#include <capnp/message.h>
#include <capnp/serialize.h>

#include <doctest/doctest.h>

#include "router/control/json/mesh-json.h"
#include "router/control/json/metrics-json.h"
#include "router/control/json/node-json.h"

namespace fips::router::control {
namespace {

constexpr const char* NPUB = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";

// A published snapshot: a node with one peer, one link, one transport, one
// counter and a tree.
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
    cell.publish(msg);
  }
};

Dispatch dispatch(const std::string& line, const FlatSnapshot& snapshot) {
  auto parsed = parseRequest(line);
  REQUIRE(parsed.index() == 0);
  return dispatchRequest(std::get<0>(parsed), snapshot);
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
  };
  for (const auto& [command, data] : expected) {
    const Json r = answer(std::string("{\"command\":\"") + command + "\"}", snap);
    const Json expectedResponse{{"status", "ok"}, {"data", data}};
    CHECK_MESSAGE(r == expectedResponse, command);
  }
  CHECK(answer(R"({"command":"show_status"})", snap)["data"]["npub"] == "npub1self");
  CHECK(answer(R"({"command":"show_peers"})", snap)["data"]["peers"][0]["npub"] == NPUB);
  CHECK(answer(R"({"command":"show_metrics"})", snap)["data"]["link"]["handshakes_out"] == 3);
  // Params on a query are ignored, as in the reference.
  CHECK(answer(R"({"command":"show_tree","params":{"x":1}})", snap)["data"]["depth"] == 2);
}

TEST_CASE("unknown, not-yet and too-early queries are errors") {
  Published published;
  const FlatSnapshot snap = published.cell.latest();
  CHECK(answer(R"({"command":"show_everything"})", snap) ==
        error("unknown command: show_everything"));
  CHECK(answer(R"({"command":""})", snap) == error("unknown command: "));
  CHECK(answer(R"({"command":"show_sessions"})", snap) ==
        error("show_sessions: not available yet in this build"));
  CHECK(answer(R"({"command":"probe_start","params":{"npub":"x"}})", snap) ==
        error("probe_start: not available yet in this build"));
  CHECK(answer(R"({"command":"show_status"})", nullptr) == error("node starting: no snapshot yet"));
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
                                        {"refreshed", false}}}});
  BridgeRequest d = command(R"({"command":"disconnect","params":{"npub":"npub1a"}})");
  CHECK(bridgeResponse(d, ok) ==
        Json{{"status", "ok"}, {"data", {{"npub", "npub1a"}, {"disconnected", true}}}});
  CommandOutcome refused;
  refused.error = "peer not found: npub1a";
  CHECK(bridgeResponse(d, refused) == error("peer not found: npub1a"));
}

}  // namespace fips::router::control
