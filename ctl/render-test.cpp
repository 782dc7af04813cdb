// SPDX-License-Identifier: MIT
// fipsctl's output from fixed snapshots: every show command and stats
// metrics, as table and as JSON (field names of the reference's
// control-socket JSON), and the Prometheus text format.
#include <capnp/message.h>

#include <doctest/doctest.h>

#include "ctl/metrics-render.h"
#include "ctl/show-render.h"

namespace fips::ctl {
namespace {

constexpr const char* PEER_NPUB = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";
constexpr uint64_t NOW_MS = 1'700'000'100'000;

// One snapshot: a running node with one outbound UDP peer.
struct Snapshot {
  capnp::MallocMessageBuilder msg;
  schema::NodeSnapshot::Builder root = msg.initRoot<schema::NodeSnapshot>();

  Snapshot() {
    auto s = root.initStatus();
    s.setNpub("npub1self");
    const uint8_t addr[16] = {0x1b, 0x47, 0x88, 0xb7, 0xab, 0x7a, 0x43, 0x6a,
                              0x61, 0x1f, 0xc5, 0x9f, 0xb1, 0xe3, 0x4c, 0x6e};
    s.setNodeAddr(kj::arrayPtr(addr, 16));
    const uint8_t ipv6[16] = {0xfd, 0x1b, 0x47, 0x88, 0xb7, 0xab, 0x7a, 0x43,
                              0x6a, 0x61, 0x1f, 0xc5, 0x9f, 0xb1, 0xe3, 0x4c};
    s.setIpv6(kj::arrayPtr(ipv6, 16));
    s.setVersion("0.1.0");
    s.setState("running");
    s.setUptimeSecs(3725);
    s.setPeerCount(1);
    s.setLinkCount(1);
    s.setTransportCount(1);
    s.setTunState("disabled");
    s.setControlSocket("/run/fips/control.sock");
    s.setPid(4242);
    s.setExePath("/usr/libexec/fips/fips-router");
    auto counts = s.initTransportPeerCounts(1);
    counts[0].setType("udp");
    counts[0].setCount(1);

    auto p = root.initPeers(1)[0];
    p.setNpub(PEER_NPUB);
    p.setDisplayName("core-vm");
    p.setNodeAddr(kj::arrayPtr(addr, 16));
    p.setIpv6(kj::arrayPtr(ipv6, 16));
    p.setTransportId(1);
    p.setTransportType("udp");
    p.setTransportName("udp");
    p.setTransportAddr("10.99.0.2:2121");
    p.setOutbound(true);
    p.setAuthenticatedAtMs(NOW_MS - 90'000);
    p.setLastSeenMs(NOW_MS - 2'000);
    p.setOurIndex(0xabcdef01);
    p.setTheirIndex(7);

    auto l = root.initLinks(1)[0];
    l.setTransportId(1);
    l.setRemoteAddr("10.99.0.2:2121");
    l.setOutbound(true);
    l.setState("connected");
    l.setCreatedAtMs(NOW_MS - 90'000);
    l.setLastRecvMs(NOW_MS - 2'000);
    l.setNpub(PEER_NPUB);

    auto t = root.initTransports(1)[0];
    t.setTransportId(1);
    t.setType("udp");
    t.setName("udp/lan");
    t.setState("up");
    t.initLocalAddrs(1).set(0, "10.99.0.1:2121");
    t.setPacketsRecv(10);
    t.setPacketsSent(12);
    t.setBytesRecv(1000);
    t.setBytesSent(1200);

    auto c = root.initCounters(3);
    c[0].setFamily("link");
    c[0].setName("handshakes_out");
    c[0].setValue(3);
    c[0].setHelp("msg1s this node initiated");
    c[1].setFamily("link");
    c[1].setName("drops");
    c[1].setLabelName("reason");
    c[1].setLabelValue("short");
    c[1].setValue(5);
    c[1].setHelp("received datagrams dropped");
    c[2].setFamily("link");
    c[2].setName("drops");
    c[2].setLabelName("reason");
    c[2].setLabelValue("replay");
    c[2].setValue(0);
    c[2].setHelp("received datagrams dropped");
  }
  schema::NodeSnapshot::Reader get() { return root.asReader(); }
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("show status: JSON keys and values") {
  Snapshot snap;
  Json j = statusJson(snap.get().getStatus());
  CHECK(j["npub"] == "npub1self");
  CHECK(j["node_addr"] == "1b4788b7ab7a436a611fc59fb1e34c6e");
  CHECK(j["ipv6_addr"] == "fd1b:4788:b7ab:7a43:6a61:1fc5:9fb1:e34c");
  CHECK(j["peer_count"] == 1);
  CHECK(j["link_count"] == 1);
  CHECK(j["state"] == "running");
  CHECK(j["tun_state"] == "disabled");
  CHECK(j["tun_name"] == "-");
  CHECK(j["transport_peer_counts"]["udp"] == 1);
  CHECK(j["uptime_secs"] == 3725);
  CHECK(j["pid"] == 4242);
}

TEST_CASE("show status: table") {
  Snapshot snap;
  const std::string table = statusTable(snap.get().getStatus());
  CHECK(contains(table, "npub        npub1self\n"));
  CHECK(contains(table, "uptime      1h02m\n"));
  CHECK(contains(table, "peers       1\n"));
  CHECK(contains(table, "tun         disabled\n"));
}

TEST_CASE("show peers: JSON and table") {
  Snapshot snap;
  Json j = peersJson(snap.get().getPeers());
  REQUIRE(j["peers"].size() == 1);
  const Json& p = j["peers"][0];
  CHECK(p["npub"] == PEER_NPUB);
  CHECK(p["display_name"] == "core-vm");
  CHECK(p["transport_addr"] == "10.99.0.2:2121");
  CHECK(p["transport_type"] == "udp");
  CHECK(p["direction"] == "outbound");
  CHECK(p["connectivity"] == "connected");
  CHECK(p["our_session_index"] == "abcdef01");
  CHECK_FALSE(p.contains("rekey_in_progress"));

  const std::string table = peersTable(snap.get().getPeers(), NOW_MS);
  CHECK(contains(table, "NAME     NPUB"));
  CHECK(contains(table, "core-vm  " + std::string(PEER_NPUB) +
                            "  udp        10.99.0.2:2121  out  1m30s  2s\n"));
}

TEST_CASE("show links: JSON and table") {
  Snapshot snap;
  Json j = linksJson(snap.get().getLinks());
  REQUIRE(j["links"].size() == 1);
  CHECK(j["links"][0]["remote_addr"] == "10.99.0.2:2121");
  CHECK(j["links"][0]["direction"] == "outbound");
  CHECK(j["links"][0]["state"] == "connected");
  CHECK(j["links"][0]["created_at_ms"] == NOW_MS - 90'000);
  CHECK(j["links"][0]["stats"]["last_recv_ms"] == NOW_MS - 2'000);
  const std::string table = linksTable(snap.get().getLinks(), NOW_MS);
  CHECK(contains(
      table, "1          10.99.0.2:2121  out  connected  1m30s  2s    " + std::string(PEER_NPUB)));
}

TEST_CASE("show transports: JSON and table") {
  Snapshot snap;
  Json j = transportsJson(snap.get().getTransports());
  REQUIRE(j["transports"].size() == 1);
  const Json& t = j["transports"][0];
  CHECK(t["type"] == "udp");
  CHECK(t["name"] == "lan");
  CHECK(t["state"] == "up");
  CHECK(t["local_addr"] == "10.99.0.1:2121");
  CHECK(t["stats"]["packets_recv"] == 10);
  CHECK(t["stats"]["bytes_sent"] == 1200);
  const std::string table = transportsTable(snap.get().getTransports());
  CHECK(contains(table, "1   udp/lan  up     10.99.0.1:2121  10  12  1000      1200      0\n"));
}

TEST_CASE("empty lists print a line saying so, JSON an empty array") {
  capnp::MallocMessageBuilder msg;
  auto root = msg.initRoot<schema::NodeSnapshot>().asReader();
  CHECK(peersTable(root.getPeers(), NOW_MS) == "no peers\n");
  CHECK(linksTable(root.getLinks(), NOW_MS) == "no links\n");
  CHECK(transportsTable(root.getTransports()) == "no transports\n");
  CHECK(peersJson(root.getPeers()).dump() == R"({"peers":[]})");
}

TEST_CASE("stats metrics: JSON, table, Prometheus") {
  Snapshot snap;
  auto counters = snap.get().getCounters();
  Json j = metricsJson(counters);
  CHECK(j["link"]["handshakes_out"] == 3);
  CHECK(j["link"]["drops"]["short"] == 5);
  CHECK(j["link"]["drops"]["replay"] == 0);
  CHECK(contains(metricsTable(counters), "link    drops{reason=short}   5\n"));
  CHECK(metricsPrometheus(counters) ==
        "# HELP fips_link_handshakes_out_total msg1s this node initiated\n"
        "# TYPE fips_link_handshakes_out_total counter\n"
        "fips_link_handshakes_out_total 3\n"
        "# HELP fips_link_drops_total received datagrams dropped\n"
        "# TYPE fips_link_drops_total counter\n"
        "fips_link_drops_total{reason=\"short\"} 5\n"
        "fips_link_drops_total{reason=\"replay\"} 0\n");
}

}  // namespace
}  // namespace fips::ctl
