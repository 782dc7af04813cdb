// SPDX-License-Identifier: MIT
// fipsctl's output from fixed snapshots: every show command and stats
// metrics, as table and as JSON (field names of the reference's
// control-socket JSON), and the Prometheus text format.
#include <capnp/message.h>

#include <doctest/doctest.h>

#include "ctl/metrics-render.h"
#include "ctl/show-render.h"
#include "ctl/test-snapshot.h"

namespace fips::ctl {
namespace {

using namespace test;
using Snapshot = TestSnapshot;

TEST_CASE("show status: JSON keys and values") {
  Snapshot snap;
  Json j = statusJson(snap.get().getStatus());
  CHECK(j["npub"] == SELF_NPUB);
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
  CHECK(contains(table, std::string("npub        ") + SELF_NPUB + "\n"));
  CHECK(contains(table, "uptime      1h02m\n"));
  CHECK(contains(table, "peers       1\n"));
  CHECK(contains(table, "tun         disabled\n"));
}

TEST_CASE("show peers: JSON and table") {
  Snapshot snap;
  Json j = peersJson(snap.get().getPeers());
  REQUIRE(j["peers"].size() == 2);
  const Json& p = j["peers"][0];
  CHECK(p["npub"] == PEER_NPUB);
  CHECK(p["display_name"] == "core-vm");
  CHECK(p["transport_addr"] == "10.99.0.2:2121");
  CHECK(p["transport_type"] == "udp");
  CHECK(p["direction"] == "outbound");
  CHECK(p["connectivity"] == "connected");
  CHECK(p["our_session_index"] == "abcdef01");
  CHECK_FALSE(p.contains("rekey_in_progress"));

  // ipv6_addr, the reference's key for the fd00:: address a user pings.
  CHECK(p["ipv6_addr"] == "fd1b:4788:b7ab:7a43:6a61:1fc5:9fb1:e34c");

  const std::string table = peersTable(snap.get().getPeers(), NOW_MS);
  CHECK(contains(table, "NAME      NPUB" + std::string(63 - 4 + 2, ' ') + "ADDRESS" +
                            std::string(39 - 7 + 2, ' ') + "TRANSPORT  REMOTE "));
  CHECK(contains(table, "core-vm   " + std::string(PEER_NPUB) +
                            "  fd1b:4788:b7ab:7a43:6a61:1fc5:9fb1:e34c"
                            "  udp        10.99.0.2:2121  out  1m30s  2s\n"));
  // A peer whose answer lacks an address shows "-" in its place.
  CHECK(contains(table, "\nnpub1abc  " + std::string(63, ' ') + "  -" + std::string(38, ' ') +
                            "  udp        10.99.0.3:2121  in   5s     1s\n"));
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
  // The peer's display name beside its npub, as in every table naming a node.
  CHECK(contains(table, "IDLE  NAME     PEER\n"));
  CHECK(contains(table, "1          10.99.0.2:2121  out  connected  1m30s  2s    core-vm  " +
                            std::string(PEER_NPUB)));
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
  CHECK(t["stats"]["send_errors"] == 3);
  CHECK(t["stats"]["kernel_drops"] == 2);
  // Send errors and the kernel's receive drops each have a column, as the
  // reference's fipstop shows them (Send Errors, Kernel Drops).
  const std::string table = transportsTable(snap.get().getTransports());
  CHECK(contains(table, "SEND ERRORS  KERNEL DROPS\n"));
  CHECK(contains(
      table, "1   udp/lan  up     10.99.0.1:2121  10  12  1000      1200      3            2\n"));
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
