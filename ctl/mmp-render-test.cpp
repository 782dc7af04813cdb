// SPDX-License-Identifier: MIT
// fipsctl's link-layer MMP output from fixed snapshots: show mmp (table and
// JSON with the reference's show_mmp keys), and the "mmp"/"stats" blocks of
// show peers and show links.
#include "ctl/mmp-render.h"

#include <capnp/message.h>

#include <doctest/doctest.h>

#include "ctl/show-render.h"

namespace fips::ctl {
namespace {

// Two peers: one measured (SRTT, smoothed values, trends), one not yet.
struct MmpSnapshot {
  capnp::MallocMessageBuilder msg;
  schema::NodeSnapshot::Builder root = msg.initRoot<schema::NodeSnapshot>();

  MmpSnapshot() {
    auto peers = root.initPeers(2);
    const uint8_t a[16] = {0xaa, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const uint8_t b[16] = {0xbb, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    peers[0].setNodeAddr(kj::arrayPtr(a, 16));
    peers[0].setDisplayName("core-vm");
    auto s = peers[0].initStats();
    s.setPacketsSent(1200);
    s.setPacketsRecv(1100);
    s.setBytesSent(96'000);
    s.setBytesRecv(88'000);
    auto m = peers[0].initMmp();
    m.setMode("full");
    m.setSpinBitRole("initiator");
    m.setHasSrtt(true);
    m.setSrttMs(12.5);
    m.setLossRate(0.25);
    m.setEtx(1.5);
    m.setGoodputBps(2500.0);
    m.setDeliveryRatioForward(0.75);
    m.setDeliveryRatioReverse(0.875);
    m.setHasSmoothedLoss(true);
    m.setSmoothedLoss(0.125);
    m.setHasSmoothedEtx(true);
    m.setSmoothedEtx(2.0);
    m.setRttTrend("rising");
    m.setLossTrend("stable");
    m.setGoodputTrend("falling");
    m.setJitterTrend("stable");
    m.setEcnCeCount(3);
    m.setJitterUs(1500);
    m.setLinkCost(1.6875);

    peers[1].setNodeAddr(kj::arrayPtr(b, 16));
    peers[1].setDisplayName("npub1abc");
    auto m2 = peers[1].initMmp();
    m2.setMode("lightweight");
    m2.setSpinBitRole("responder");
    m2.setEtx(1.0);
    m2.setDeliveryRatioForward(1.0);
    m2.setDeliveryRatioReverse(1.0);
    m2.setLinkCost(1.0);
    peers[1].initStats();

    auto l = root.initLinks(1)[0];
    l.setRemoteAddr("10.99.0.2:2121");
    l.setLastRecvMs(77);
    auto ls = l.initStats();
    ls.setPacketsSent(5);
    ls.setPacketsRecv(6);
    ls.setBytesSent(700);
    ls.setBytesRecv(800);
  }
  schema::NodeSnapshot::Reader get() { return root.asReader(); }
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

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
  CHECK(s["last_recv_ms"] == 77);
}

}  // namespace
}  // namespace fips::ctl
