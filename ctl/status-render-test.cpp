// SPDX-License-Identifier: MIT
// fipsctl status from the fixed snapshot: this node, the tree, the peers
// (name, fd00:: address, transport, its address, RTT) and the sessions,
// as one screen and as JSON.
#include "ctl/status-render.h"

#include <capnp/message.h>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ctl/test-snapshot.h"

namespace fips::ctl {
namespace {

using namespace test;

std::string screenOf(schema::NodeSnapshot::Reader s) {
  return statusScreen(s.getStatus(), s.getPeers(), s.getTree(), s.getSessions(), NOW_MS);
}

TEST_CASE("status: the node, its tree position, peers and sessions on one screen") {
  TestSnapshot snap;
  const std::string screen = screenOf(snap.get());
  CHECK(screen.starts_with(std::string("npub     ") + SELF_NPUB + "\n"));
  CHECK(contains(screen, "address  fd1b:4788:b7ab:7a43:6a61:1fc5:9fb1:e34c\n"));
  CHECK(contains(screen, "tun      disabled\n"));
  CHECK(contains(screen, "tree     root npub1root, depth 1, parent node-a\n"));
  CHECK(contains(screen, "uptime   1h02m (fips 0.1.0, pid 4242)\n"));
  CHECK(contains(screen, "\npeers: 2\nNAME      ADDRESS" + std::string(39 - 7 + 2, ' ') +
                             "TRANSPORT  REMOTE          RTT     UP\n"));
  CHECK(contains(screen,
                 "core-vm   fd1b:4788:b7ab:7a43:6a61:1fc5:9fb1:e34c  udp        "
                 "10.99.0.2:2121  12.5ms  1m30s\n"));
  // Not measured yet: no RTT.
  CHECK(contains(
      screen, "npub1abc  -" + std::string(38, ' ') + "  udp        10.99.0.3:2121  -       5s\n"));
  // Sessions: the count is the node's (3), the list what the snapshot held.
  CHECK(contains(screen, "\nsessions: 3\nNAME         ADDRESS"));
  CHECK(contains(screen,
                 "node-c       fd9a:11:2233:4455:6677:8899:aabb:ccdd  established  "
                 "42.5ms  2s\n"));
  CHECK(contains(screen,
                 "c0ffee00...  fdc0:ffee::                            initiating   "
                 "-       3s\n"));
  CHECK(contains(screen, "... and 1 more\n"));
}

TEST_CASE("status: a lone root node says so") {
  capnp::MallocMessageBuilder msg;
  auto root = msg.initRoot<schema::NodeSnapshot>();
  fillStatus(root);
  root.initTree().setIsRoot(true);
  const std::string screen = screenOf(root.asReader());
  CHECK(contains(screen, "tree     this node is the root (depth 0)\n"));
  CHECK(contains(screen, "\npeers: none\n"));
  CHECK(contains(screen, "\nsessions: none\n"));
}

TEST_CASE("status --json: one document with the same parts") {
  TestSnapshot snap;
  auto s = snap.get();
  const auto j = nlohmann::json::parse(
      statusScreenJson(s.getStatus(), s.getPeers(), s.getTree(), s.getSessions()));
  CHECK(j["node"]["npub"] == SELF_NPUB);
  CHECK(j["node"]["ipv6_addr"] == "fd1b:4788:b7ab:7a43:6a61:1fc5:9fb1:e34c");
  CHECK(j["tree"]["root_npub"] == "npub1root");
  CHECK(j["tree"]["depth"] == 1);
  CHECK(j["tree"]["is_root"] == false);
  REQUIRE(j["peers"].size() == 2);
  CHECK(j["peers"][0]["display_name"] == "core-vm");
  CHECK(j["peers"][0]["ipv6_addr"] == "fd1b:4788:b7ab:7a43:6a61:1fc5:9fb1:e34c");
  CHECK(j["sessions"]["count"] == 3);
  REQUIRE(j["sessions"]["sessions"].size() == 2);
  CHECK(j["sessions"]["sessions"][0]["display_name"] == "node-c");
  CHECK(j["sessions"]["sessions"][0]["ipv6_addr"] == "fd9a:11:2233:4455:6677:8899:aabb:ccdd");
}

}  // namespace
}  // namespace fips::ctl
