// SPDX-License-Identifier: MIT
// fipsctl's `show sessions|connections|routing|identity-cache` and `acl
// show` output from fixed snapshots, as table and as JSON with the
// reference's show_sessions / show_connections / show_routing /
// show_identity_cache / show_acl keys.
#include "ctl/routing-render.h"

#include <capnp/message.h>

#include <doctest/doctest.h>

#include "ctl/test-snapshot.h"

namespace fips::ctl {
namespace {

using namespace test;
constexpr const char* PEER_HEX = HEX_B;
constexpr const char* OTHER_HEX = HEX_C;
constexpr uint64_t NOW = NOW_MS;

struct Snapshot : TestSnapshot {
  schema::NodeSnapshot::Reader reader() { return root.asReader(); }
};

TEST_CASE("show sessions --json: the reference's keys, by state") {
  Snapshot s;
  const Json doc = sessionsJson(s.reader().getSessions());
  REQUIRE(doc["sessions"].size() == 2);
  CHECK(doc["count"] == 3);
  const Json& up = doc["sessions"][0];
  CHECK(up["remote_addr"] == PEER_HEX);
  CHECK(up["display_name"] == "node-c");
  CHECK(up["npub"] == "npub1peer");
  CHECK(up["state"] == "established");
  CHECK(up["is_initiator"] == true);
  CHECK(up["last_activity_ms"] == NOW - 2'000);
  CHECK(up["stats"]["packets_sent"] == 10);
  CHECK(up["stats"]["bytes_recv"] == 900);
  CHECK(up["session_start_ms"] == NOW - 60'000);
  CHECK(up["current_k_bit"] == true);
  CHECK(up["is_draining"] == false);
  CHECK(up["path_mtu"] == 1400);
  CHECK(up["rekey_count"] == 2);
  CHECK_FALSE(up.contains("resend_count"));
  // Session-layer MMP, the reference's keys (sqi = smoothed ETX × (1 + SRTT/100)).
  const Json& mmp = up["mmp"];
  CHECK(mmp["mode"] == "full");
  CHECK(mmp["srtt_ms"] == 42.5);
  CHECK(mmp["loss_rate"] == 0.25);
  CHECK(mmp["etx"] == 1.5);
  CHECK(mmp["delivery_ratio_forward"] == 0.75);
  CHECK(mmp["path_mtu"] == 1400);
  CHECK(mmp["smoothed_etx"] == 2.0);
  CHECK(mmp["sqi"].get<double>() == doctest::Approx(2.85));
  CHECK_FALSE(mmp.contains("smoothed_loss"));
  const Json& hs = doc["sessions"][1];
  CHECK_FALSE(hs.contains("mmp"));
  CHECK(hs["state"] == "initiating");
  CHECK(hs["resend_count"] == 2);
  CHECK(hs["npub"].is_null());
  CHECK(hs["path_mtu"].is_null());
  CHECK_FALSE(hs.contains("session_start_ms"));
}

TEST_CASE("show sessions: one row per session, age and epoch, the rest counted") {
  Snapshot s;
  const std::string table = sessionsTable(s.reader().getSessions(), NOW);
  CHECK(contains(table, "node-c"));
  CHECK(contains(table, "established"));
  CHECK(contains(table, "initiator"));
  CHECK(contains(table, "responder"));
  CHECK(contains(table, "2m05s"));
  CHECK(contains(table, "1400"));
  CHECK(contains(table, "10/9"));
  CHECK(contains(table, "SRTT"));
  CHECK(contains(table, "42.5ms"));
  CHECK(contains(table, "25.0%"));
  CHECK(contains(table, "1.50"));
  CHECK(contains(table, "... and 1 more"));
  capnp::MallocMessageBuilder empty;
  CHECK(sessionsTable(empty.initRoot<schema::SessionsStatus>().asReader(), NOW) == "no sessions\n");
}

TEST_CASE("show connections: JSON keys and table") {
  Snapshot s;
  const Json doc = connectionsJson(s.reader().getConnections());
  REQUIRE(doc["connections"].size() == 1);
  const Json& c = doc["connections"][0];
  CHECK(c["link_id"] == 77);
  CHECK(c["direction"] == "outbound");
  CHECK(c["handshake_state"] == "sent_msg1");
  CHECK(c["idle_ms"] == 4'000);
  CHECK(c["resend_count"] == 3);
  CHECK(c["expected_peer"] == "npub1peer");
  const std::string table = connectionsTable(s.reader().getConnections());
  CHECK(contains(table, "192.0.2.7:2121"));
  CHECK(contains(table, "sent_msg1"));
}

TEST_CASE("show routing --json: counts, lookups, retries, counter families") {
  Snapshot s;
  const Json doc = routingJson(s.reader().getRouting());
  CHECK(doc["coord_cache_entries"] == 4);
  CHECK(doc["identity_cache_entries"] == 5);
  CHECK(doc["pending_tun_destinations"] == 1);
  CHECK(doc["pending_tun_packets"] == 3);
  CHECK(doc["recent_requests"] == 6);
  REQUIRE(doc["pending_lookups"].size() == 1);
  CHECK(doc["pending_lookups"][0]["target"] == OTHER_HEX);
  CHECK(doc["pending_lookups"][0]["attempt"] == 2);
  REQUIRE(doc["retries"].size() == 1);
  CHECK(doc["retries"][0]["retry_count"] == 4);
  CHECK(doc["retries"][0]["auto_reconnect"] == true);
  CHECK(doc["forwarding"]["forwarded_packets"] == 11);
  CHECK(doc["forwarding"]["route_tree_up"] == 8);
  CHECK(doc["discovery"]["req_initiated"] == 2);
  CHECK(doc["lookup"] == doc["discovery"]);
  CHECK_FALSE(doc["forwarding"].contains("req_initiated"));
}

TEST_CASE("show routing: summary, lookup and retry tables") {
  Snapshot s;
  const std::string table = routingTable(s.reader().getRouting(), NOW);
  CHECK(contains(table, "3 packets for 1 destinations"));
  CHECK(contains(table, "11 packets"));
  CHECK(contains(table, "2 initiated"));
  CHECK(contains(table, OTHER_HEX));
  CHECK(contains(table, "in 8s"));
}

TEST_CASE("show identity-cache: JSON keys and table") {
  Snapshot s;
  const Json doc = identityCacheJson(s.reader().getIdentityCache());
  CHECK(doc["count"] == 1);
  CHECK(doc["max_entries"] == 10000);
  REQUIRE(doc["entries"].size() == 1);
  CHECK(doc["entries"][0]["node_addr"] == PEER_HEX);
  CHECK(doc["entries"][0]["npub"] == "npub1peer");
  CHECK(doc["entries"][0]["ipv6_addr"] == "fd9a:11:2233:4455:6677:8899:aabb:ccdd");
  const std::string table = identityCacheTable(s.reader().getIdentityCache());
  CHECK(contains(table, "1 / 10000"));
  CHECK(contains(table, "node-c"));
}

TEST_CASE("acl show: the reference's default state, and the build says it has no ACL") {
  Snapshot s;
  const Json doc = aclJson(s.reader().getAcl());
  CHECK(doc["effective_mode"] == "default_open");
  CHECK(doc["default_decision"] == "allow");
  CHECK(doc["enforcement_active"] == false);
  CHECK(doc["allow_entries"].is_array());
  CHECK(doc["deny_file"] == "/etc/fips/peers.deny");
  CHECK(doc.size() == 11);
  const auto missing = [](const std::string&) { return AclFileState::MISSING; };
  CHECK(contains(aclTable(s.reader().getAcl(), missing), "no peer ACL"));
}

TEST_CASE("acl show: a missing ACL file is said missing, not 0 entries") {
  Snapshot s;
  const auto allowOnly = [](const std::string& path) {
    return path == "/etc/fips/peers.allow" ? AclFileState::PRESENT : AclFileState::MISSING;
  };
  const std::string table = aclTable(s.reader().getAcl(), allowOnly);
  CHECK(contains(table, "/etc/fips/peers.deny (missing)"));
  // This build does not read the files: a present one is not said empty.
  CHECK(contains(table, "/etc/fips/peers.allow (not read)"));
  CHECK_FALSE(contains(table, "entries"));
  const auto unknown = [](const std::string&) { return AclFileState::UNKNOWN; };
  CHECK(contains(aclTable(s.reader().getAcl(), unknown), "/etc/fips/peers.deny (not read)"));
}

}  // namespace
}  // namespace fips::ctl
