// SPDX-License-Identifier: MIT
// fipsctl's link-layer MMP output from fixed snapshots: show mmp (table and
// JSON with the reference's show_mmp keys), and the "mmp"/"stats" blocks of
// show peers and show links.
#include "ctl/mmp-render.h"

#include <capnp/message.h>

#include <doctest/doctest.h>

#include "ctl/show-render.h"
#include "ctl/test-snapshot.h"

namespace fips::ctl {
namespace {

using namespace test;
using MmpSnapshot = TestSnapshot;

TEST_CASE("show mmp: JSON keys and values (the reference's show_mmp)") {
  MmpSnapshot snap;
  const Json j = mmpJson(snap.get().getPeers());
  REQUIRE(j["peers"].size() == 2);
  CHECK(j["sessions"].is_array());
  CHECK(j["sessions"].empty());
  const Json& p = j["peers"][0];
  CHECK(p["peer"] == "aa0102030405060708090a0b0c0d0e0f");
  CHECK(p["display_name"] == "core-vm");
  CHECK(p["mode"] == "full");
  const Json& l = p["link_layer"];
  CHECK(l["srtt_ms"] == 12.5);
  CHECK(l["loss_rate"] == 0.25);
  CHECK(l["etx"] == 1.5);
  CHECK(l["goodput_bps"] == 2500.0);
  CHECK(l["spin_bit_role"] == "initiator");
  CHECK(l["smoothed_loss"] == 0.125);
  CHECK(l["smoothed_etx"] == 2.0);
  CHECK(l["lqi"] == 2.25);  // 2.0 × (1 + 12.5/100)
  CHECK(l["rtt_trend"] == "rising");
  CHECK(l["goodput_trend"] == "falling");
  CHECK(l["delivery_ratio_forward"] == 0.75);
  CHECK(l["delivery_ratio_reverse"] == 0.875);
  CHECK(l["ecn_ce_count"] == 3);
  // Unmeasured: no srtt_ms, lqi, smoothed values or trends.
  const Json& u = j["peers"][1]["link_layer"];
  CHECK(j["peers"][1]["mode"] == "lightweight");
  CHECK(u["spin_bit_role"] == "responder");
  for (const char* key :
       {"srtt_ms", "lqi", "smoothed_loss", "smoothed_etx", "rtt_trend", "jitter_trend"}) {
    CHECK_FALSE(u.contains(key));
  }
  CHECK(u["etx"] == 1.0);
}

TEST_CASE("show mmp: table") {
  MmpSnapshot snap;
  const std::string table = mmpTable(snap.get().getPeers());
  CHECK(contains(table,
                 "PEER      MODE         SRTT    LOSS   ETX   JITTER  GOODPUT  COST  "
                 "TX PKTS  RX PKTS\n"));
  CHECK(contains(table,
                 "core-vm   full         12.5ms  25.0%  1.50  1.5ms   2.5KB/s  1.69  "
                 "1200     1100\n"));
  CHECK(contains(table,
                 "npub1abc  lightweight  -       0.0%   1.00  0.0ms   -        1.00  "
                 "0        0\n"));
  capnp::MallocMessageBuilder empty;
  auto none = empty.initRoot<schema::NodeSnapshot>();
  none.initPeers(0);
  CHECK(mmpTable(none.asReader().getPeers()) == "no peers\n");
  CHECK(mmpJson(none.asReader().getPeers())["peers"].empty());
}

TEST_CASE("show peers: stats and mmp blocks") {
  MmpSnapshot snap;
  const Json j = peersJson(snap.get().getPeers());
  const Json& p = j["peers"][0];
  CHECK(p["stats"]["packets_sent"] == 1200);
  CHECK(p["stats"]["packets_recv"] == 1100);
  CHECK(p["stats"]["bytes_sent"] == 96'000);
  CHECK(p["stats"]["bytes_recv"] == 88'000);
  CHECK(p["mmp"]["mode"] == "full");
  CHECK(p["mmp"]["srtt_ms"] == 12.5);
  CHECK(p["mmp"]["lqi"] == 2.25);
  CHECK(p["mmp"]["delivery_ratio_reverse"] == 0.875);
  CHECK_FALSE(j["peers"][1]["mmp"].contains("srtt_ms"));
  CHECK(j["peers"][1]["stats"]["packets_sent"] == 0);
}

TEST_CASE("show links: the stats block carries the traffic counters") {
  MmpSnapshot snap;
  const Json j = linksJson(snap.get().getLinks());
  const Json& s = j["links"][0]["stats"];
  CHECK(s["packets_sent"] == 5);
  CHECK(s["packets_recv"] == 6);
  CHECK(s["bytes_sent"] == 700);
  CHECK(s["bytes_recv"] == 800);
  CHECK(s["last_recv_ms"] == NOW_MS - 2'000);
}

}  // namespace
}  // namespace fips::ctl
