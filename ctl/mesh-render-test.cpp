// SPDX-License-Identifier: MIT
// fipsctl's `show tree|bloom|cache` output from fixed snapshots, as table
// and as JSON with the reference's show_tree / show_bloom / show_cache keys.
#include "ctl/mesh-render.h"

#include <capnp/message.h>

#include <doctest/doctest.h>

namespace fips::ctl {
namespace {

// Node B (depth 1) under root A; C is a peer whose TreeAnnounce is not in yet.
const uint8_t ROOT[16] = {0x1b, 0x47, 0x88, 0xb7, 0xab, 0x7a, 0x43, 0x6a,
                          0x61, 0x1f, 0xc5, 0x9f, 0xb1, 0xe3, 0x4c, 0x6e};
const uint8_t SELF[16] = {0x9a, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
                          0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee};
const uint8_t OTHER[16] = {0xc0, 0xff, 0xee, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
const uint8_t IPV6[16] = {0xfd, 0xc0, 0xff, 0xee, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
constexpr const char* ROOT_HEX = "1b4788b7ab7a436a611fc59fb1e34c6e";
constexpr const char* SELF_HEX = "9a00112233445566778899aabbccddee";
constexpr const char* OTHER_HEX = "c0ffee00000000000000000000000001";

kj::ArrayPtr<const uint8_t> bytes(const uint8_t (&a)[16]) {
  return kj::arrayPtr(a, 16);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

struct Snapshot {
  capnp::MallocMessageBuilder msg;
  schema::NodeSnapshot::Builder root = msg.initRoot<schema::NodeSnapshot>();

  Snapshot() {
    auto t = root.initTree();
    t.setMyNodeAddr(bytes(SELF));
    t.setRoot(bytes(ROOT));
    t.setRootNpub("npub1root");
    t.setDepth(1);
    auto coords = t.initMyCoords(2);
    coords.set(0, bytes(SELF));
    coords.set(1, bytes(ROOT));
    t.setParent(bytes(ROOT));
    t.setParentDisplayName("node-a");
    t.setDeclarationSequence(3);
    t.setDeclarationSigned(true);
    auto peers = t.initPeers(2);
    peers[0].setNodeAddr(bytes(ROOT));
    peers[0].setDisplayName("node-a");
    peers[0].setHasCoords(true);
    peers[0].initCoords(1).set(0, bytes(ROOT));
    peers[0].setRoot(bytes(ROOT));
    peers[0].setDistanceToUs(1);
    peers[1].setNodeAddr(bytes(OTHER));
    peers[1].setDisplayName("c0ffee00...");
    auto stats = t.initStats(2);
    stats[0].setName("received");
    stats[0].setValue(7);
    stats[1].setName("accepted");
    stats[1].setValue(6);

    auto b = root.initBloom();
    b.setOwnNodeAddr(bytes(SELF));
    b.setSequence(4);
    auto filters = b.initPeerFilters(2);
    filters[0].setPeer(bytes(ROOT));
    filters[0].setDisplayName("node-a");
    filters[0].setHasFilter(true);
    filters[0].setSetBits(25);
    filters[0].setFillRatio(0.003);
    filters[0].setEstimatedCount(2.0);
    filters[1].setPeer(bytes(OTHER));
    filters[1].setDisplayName("c0ffee00...");
    b.initStats(1)[0].setName("sent");
    b.getStats()[0].setValue(5);

    auto c = root.initCache();
    c.setCount(1);
    c.setMaxEntries(50000);
    c.setDefaultTtlMs(300000);
    c.setAvgAgeMs(61000);
    auto e = c.initEntries(1)[0];
    e.setNodeAddr(bytes(OTHER));
    e.setDisplayName("c0ffee00...");
    e.setIpv6(bytes(IPV6));
    auto path = e.initCoords(2);
    path.set(0, bytes(OTHER));
    path.set(1, bytes(ROOT));
    e.setDepth(1);
    e.setAgeMs(61000);
    e.setLastUsedMs(123456);
    e.setPathMtu(1280);
  }
};

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
