// SPDX-License-Identifier: MIT
// fipsctl's `show tree|bloom|cache` output from fixed snapshots, as table
// and as JSON with the reference's show_tree / show_bloom / show_cache keys.
#include "ctl/mesh-render.h"

#include <capnp/message.h>

#include <doctest/doctest.h>

#include "ctl/test-snapshot.h"

namespace fips::ctl {
namespace {

using namespace test;
constexpr const char* ROOT_HEX = HEX_A;
constexpr const char* SELF_HEX = HEX_B;
constexpr const char* OTHER_HEX = HEX_C;
using Snapshot = TestSnapshot;

TEST_CASE("show tree: JSON keys and values") {
  Snapshot s;
  const Json j = treeJson(s.root.getTree().asReader());
  CHECK(j["my_node_addr"] == SELF_HEX);
  CHECK(j["root"] == ROOT_HEX);
  CHECK(j["root_npub"] == "npub1root");
  CHECK(j["is_root"] == false);
  CHECK(j["depth"] == 1);
  CHECK(j["my_coords"] == Json::array({SELF_HEX, ROOT_HEX}));
  CHECK(j["parent"] == ROOT_HEX);
  CHECK(j["parent_display_name"] == "node-a");
  CHECK(j["declaration_sequence"] == 3);
  CHECK(j["declaration_signed"] == true);
  CHECK(j["peer_tree_count"] == 2);
  CHECK(j["peers"][0]["depth"] == 0);
  CHECK(j["peers"][0]["coords"] == Json::array({ROOT_HEX}));
  CHECK(j["peers"][0]["distance_to_us"] == 1);
  CHECK(j["peers"][1] == Json{{"node_addr", OTHER_HEX}, {"display_name", "c0ffee00..."}});
  CHECK(j["stats"] == Json{{"received", 7}, {"accepted", 6}});
}

TEST_CASE("show tree: unknown root npub is null") {
  Snapshot s;
  s.root.getTree().setRootNpub("");
  CHECK(treeJson(s.root.getTree().asReader())["root_npub"].is_null());
}

TEST_CASE("show tree: table") {
  Snapshot s;
  const std::string table = treeTable(s.root.getTree().asReader());
  CHECK(contains(table, std::string("root         ") + ROOT_HEX + "\n"));
  CHECK(contains(table, "depth        1\n"));
  CHECK(contains(table, std::string("parent       node-a (") + ROOT_HEX + ")\n"));
  CHECK(contains(table, "coords       9a001122 > 1b4788b7\n"));
  CHECK(contains(table, "declaration  seq 3, signed\n"));
  CHECK(contains(table, std::string("c0ffee00...  ") + OTHER_HEX + "  -      -     -\n"));
  CHECK(contains(table, "stats: received=7 accepted=6\n"));
}

TEST_CASE("show bloom: JSON keys and values") {
  Snapshot s;
  const Json j = bloomJson(s.root.getBloom().asReader());
  CHECK(j["own_node_addr"] == SELF_HEX);
  CHECK(j["is_leaf_only"] == false);
  CHECK(j["sequence"] == 4);
  CHECK(j["leaf_dependent_count"] == 0);
  CHECK(j["leaf_dependents"] == Json::array());
  CHECK(j["peer_filters"][0]["peer"] == ROOT_HEX);
  CHECK(j["peer_filters"][0]["has_filter"] == true);
  CHECK(j["peer_filters"][0]["set_bits"] == 25);
  CHECK(j["peer_filters"][0]["estimated_count"] == 2.0);
  CHECK(j["peer_filters"][1] ==
        Json{{"peer", OTHER_HEX}, {"display_name", "c0ffee00..."}, {"has_filter", false}});
  CHECK(j["uptree_fill_ratio"].is_null());
  CHECK(j["stats"] == Json{{"sent", 5}});
}

TEST_CASE("show bloom: table") {
  Snapshot s;
  const std::string table = bloomTable(s.root.getBloom().asReader());
  CHECK(contains(table, "sequence       4\n"));
  CHECK(contains(table, std::string("node-a       ") + ROOT_HEX + "  25        0.003  2\n"));
  CHECK(contains(table, std::string("c0ffee00...  ") + OTHER_HEX + "  -         -      -\n"));
}

TEST_CASE("show cache: JSON keys and values") {
  Snapshot s;
  const Json j = cacheJson(s.root.getCache().asReader());
  CHECK(j["count"] == 1);
  CHECK(j["max_entries"] == 50000);
  CHECK(j["fill_ratio"] == doctest::Approx(1.0 / 50000));
  CHECK(j["default_ttl_ms"] == 300000);
  CHECK(j["expired"] == 0);
  CHECK(j["avg_age_ms"] == 61000);
  const Json& e = j["entries"][0];
  CHECK(e["node_addr"] == OTHER_HEX);
  CHECK(e["ipv6_addr"] == "fdc0:ffee::");
  CHECK(e["coords"] == Json::array({OTHER_HEX, ROOT_HEX}));
  CHECK(e["depth"] == 1);
  CHECK(e["age_ms"] == 61000);
  CHECK(e["last_used_ms"] == 123456);
  CHECK(e["path_mtu"] == 1280);
}

TEST_CASE("show cache: no path MTU, no key; table") {
  Snapshot s;
  s.root.getCache().getEntries()[0].setPathMtu(0);
  CHECK_FALSE(cacheJson(s.root.getCache().asReader())["entries"][0].contains("path_mtu"));
  const std::string table = cacheTable(s.root.getCache().asReader());
  CHECK(contains(table, "entries  1 / 50000\n"));
  CHECK(contains(table, "c0ffee00...  fdc0:ffee::  1      1m01s  -    c0ffee00 > 1b4788b7\n"));
}

TEST_CASE("show cache: empty") {
  capnp::MallocMessageBuilder msg;
  auto c = msg.initRoot<schema::CacheStatus>();
  CHECK(contains(cacheTable(c.asReader()), "no cached coordinates\n"));
  CHECK(cacheJson(c.asReader())["fill_ratio"] == 0.0);
}

}  // namespace
}  // namespace fips::ctl
