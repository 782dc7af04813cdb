// SPDX-License-Identifier: MIT
// fipsctl's `probe` output from fixed reports: the reference's report keys,
// the overall verdict, and the stage block as text.
#include "ctl/probe-render.h"

#include <capnp/message.h>

#include <doctest/doctest.h>

#include "router/control/json/probe-json.h"
#include "router/control/probe/probe-job.h"

namespace fips::ctl {
namespace {

using router::control::json::probeJson;
using router::control::json::probeOverall;

const uint8_t TARGET[16] = {0x4a, 0x1f, 0x9c, 0x22, 0xe0, 0x8b, 0x5d, 0x37,
                            0x14, 0xaa, 0x06, 0xfb, 0x92, 0xc1, 0xde, 0x55};
const uint8_t SELF[16] = {0x4d, 0x22, 0x01, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
const uint8_t ROOT[16] = {0x91, 0xb4, 0x0c, 0x6e, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
const uint8_t IPV6[16] = {0xfd, 0x4a, 0x1f, 0x9c, 0x22, 0xe0, 0x8b, 0x5d,
                          0x37, 0x14, 0xaa, 0x06, 0xfb, 0x92, 0xc1, 0xde};

kj::ArrayPtr<const uint8_t> bytes(const uint8_t (&a)[16]) {
  return kj::arrayPtr(a, 16);
}

void stage(schema::ProbeStage::Builder s, const char* verdict, const char* reason = "") {
  s.setVerdict(verdict);
  s.setReason(reason);
}

// A target two tree hops away (both under ROOT), found by a lookup; the
// probe opened the session and is waiting for the first RTT sample.
struct Report {
  capnp::MallocMessageBuilder msg;
  schema::ProbeReport::Builder r = msg.initRoot<schema::ProbeReport>();

  Report() {
    r.setTargetNpub("npub1target");
    r.setTargetNodeAddr(bytes(TARGET));
    r.setTargetDisplayName("hydra");
    r.setTargetIpv6(bytes(IPV6));
    stage(r.initBloom(), "ok");
    r.setLookupIssued(true);
    stage(r.initDiscovery(), "ok");
    r.setDiscoverySource("lookup");
    r.setDiscoveryAttempt(2);
    auto ladder = r.initAttemptTimeoutsSecs(4);
    for (unsigned i = 0; i < 4; ++i) ladder.set(i, 1u << i);
    stage(r.initPath(), "ok");
    r.setCoordsKnown(true);
    auto ours = r.initOurCoords(2);
    ours.set(0, bytes(SELF));
    ours.set(1, bytes(ROOT));
    auto theirs = r.initTheirCoords(2);
    theirs.set(0, bytes(TARGET));
    theirs.set(1, bytes(ROOT));
    r.setSameRoot(true);
    r.setLca(bytes(ROOT));
    r.setTreeHopsUp(1);
    r.setTreeHopsDown(1);
    r.setHasNextHop(true);
    r.setNextHop(bytes(ROOT));
    r.setNextHopDisplayName("relay-a");
    r.setNextHopClass("tree_up");
    stage(r.initSession(), "ok");
    r.setSessionOpened(true);
    r.setSessionEstablished(true);
    stage(r.initRtt(), "running");
  }
};

TEST_CASE("probe --json: the reference's report keys") {
  Report rep;
  const Json doc = probeJson(rep.r.asReader(), 2100);
  CHECK(doc["target"]["node_addr"] == "4a1f9c22e08b5d3714aa06fb92c1de55");
  CHECK(doc["target"]["display_name"] == "hydra");
  CHECK(doc["target"]["ipv6_addr"] == "fd4a:1f9c:22e0:8b5d:3714:aa06:fb92:c1de");
  CHECK(doc["bloom"]["verdict"] == "ok");
  CHECK(doc["bloom"]["reason"].is_null());
  CHECK(doc["discovery"]["source"] == "lookup");
  CHECK(doc["discovery"]["attempts"] == 2);
  CHECK(doc["discovery"]["attempt_timeouts_secs"] == Json::array({1, 2, 4, 8}));
  const Json& path = doc["path"];
  CHECK(path["computed_locally"] == true);
  CHECK(path["observed"] == false);
  CHECK(path["coords_known"] == true);
  // Node addresses in full hex, as the reference's NodeAddr Display.
  CHECK(path["our_coords"] ==
        Json::array({"4d2201ff000000000000000000000001", "91b40c6e000000000000000000000002"}));
  CHECK(path["their_coords"] ==
        Json::array({"4a1f9c22e08b5d3714aa06fb92c1de55", "91b40c6e000000000000000000000002"}));
  CHECK(path["lca"] == "91b40c6e000000000000000000000002");
  CHECK(path["next_hop"]["node_addr"] == "91b40c6e000000000000000000000002");
  CHECK(path["next_hop"]["display_name"] == "relay-a");
  CHECK(path["lca_depth"] == 0);
  CHECK(path["tree_distance"] == 2);
  CHECK(path["our_depth"] == 1);
  CHECK(path["next_hop"]["class"] == "tree_up");
  CHECK(path["next_hop"]["direct_peer"] == false);
  CHECK(doc["session"]["verdict"] == "ok");
  CHECK(doc["session"]["preexisting"] == false);
  CHECK(doc["session"]["established"] == true);
  CHECK_FALSE(doc["session"].contains("path_mtu"));
  CHECK(doc["rtt"]["verdict"] == "running");
  CHECK(doc["rtt"]["srtt_ms"].is_null());
  CHECK(doc["cleanup"]["lookup_issued"] == true);
  CHECK(doc["cleanup"]["session_left_intact"] == false);  // no cleanup yet
  CHECK(doc["cleanup"]["session_created_and_torn_down"] == false);
  CHECK(doc["overall"] == "partial");
  CHECK(doc["elapsed_ms"] == 2100);
  CHECK(doc["tick_ms"] == 0);
  CHECK(doc["bloom"]["fanout"].is_null());  // no LookupRequest reported
  CHECK(doc["bloom"]["elapsed_ms"].is_null());
}

TEST_CASE("probe --json: tick_ms, the bloom fanout and each stage's elapsed_ms") {
  Report rep;
  rep.r.setTickMs(1000);
  rep.r.setLookupFanout(3);
  rep.r.getBloom().setElapsedMs(0);
  rep.r.getDiscovery().setElapsedMs(2000);
  const Json doc = probeJson(rep.r.asReader(), 2100);
  CHECK(doc["tick_ms"] == 1000);
  CHECK(doc["bloom"]["fanout"] == 3);
  CHECK(doc["bloom"]["elapsed_ms"] == 0);
  CHECK(doc["discovery"]["elapsed_ms"] == 2000);
  CHECK(doc["rtt"]["elapsed_ms"].is_null());  // running
  rep.r.setLookupFanout(0);                   // no tree peer took it
  CHECK(probeJson(rep.r.asReader(), 0)["bloom"]["fanout"] == 0);
  CHECK(probeText(rep.r.asReader(), 0).find("lookup issued to 0 peers") != std::string::npos);
}

TEST_CASE("probe: overall is ok only with an RTT, failed on a bloom/discovery/session failure") {
  Report rep;
  CHECK(probeOverall(rep.r.asReader()) == "partial");
  stage(rep.r.initRtt(), "ok");
  CHECK(probeOverall(rep.r.asReader()) == "ok");
  stage(rep.r.initSession(), "skipped", "preexisting");  // the reference's verdict for it
  CHECK(probeOverall(rep.r.asReader()) == "ok");
  stage(rep.r.initRtt(), "failed", "no_report");
  CHECK(probeOverall(rep.r.asReader()) == "partial");  // the reference: reachability in doubt
  stage(rep.r.initBloom(), "failed", "bloom_miss");
  CHECK(probeOverall(rep.r.asReader()) == "failed");
}

TEST_CASE("probe --json: the rtt block carries the session SRTT") {
  Report rep;
  stage(rep.r.initRtt(), "ok");
  rep.r.setHasSrtt(true);
  rep.r.setSrttMs(18.0);
  rep.r.setLastRttMs(18);
  rep.r.setRttSamples(1);
  rep.r.setRttReportsSeen(1);
  rep.r.setWarmupsSent(1);
  const Json doc = probeJson(rep.r.asReader(), 1500);
  CHECK(doc["rtt"]["verdict"] == "ok");
  CHECK(doc["rtt"]["srtt_ms"] == 18.0);
  CHECK(doc["rtt"]["rtt_ms"] == 18);
  CHECK(doc["rtt"]["samples"] == 1);
  CHECK(doc["rtt"]["reports_seen"] == 1);
  CHECK(doc["rtt"]["zero_samples"] == 0);
  CHECK(doc["rtt"]["arith_failures"] == 0);
  CHECK(doc["cleanup"]["warmups_sent"] == 1);
  CHECK(doc["overall"] == "ok");
  CHECK(probeText(rep.r.asReader(), 1500).find("srtt 18.0 ms") != std::string::npos);
}

TEST_CASE("probe --json: the rtt block counts 0 ms samples and failed echoes") {
  Report rep;
  rep.r.setRttReportsSeen(5);
  rep.r.setRttZeroSamples(4);
  rep.r.setRttArithFailures(1);
  const Json rtt = probeJson(rep.r.asReader(), 0)["rtt"];
  CHECK(rtt["reports_seen"] == 5);
  CHECK(rtt["samples"] == 0);
  CHECK(rtt["zero_samples"] == 4);
  CHECK(rtt["arith_failures"] == 1);
}

TEST_CASE("probe: the rtt line says why the stage failed, for each reason, in one column") {
  Report rep;
  rep.r.setRttReportsSeen(3);
  // The rtt line of the text, with the stage settled on these counters.
  const auto line = [&](uint64_t zero, uint64_t arith) {
    rep.r.setRttZeroSamples(zero);
    rep.r.setRttArithFailures(arith);
    stage(rep.r.initRtt(), "running");
    router::control::settleProbe(rep.r);
    const std::string text = probeText(rep.r.asReader(), 0);
    const size_t at = text.find("\nrtt ");
    REQUIRE(at != std::string::npos);
    return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
  };
  const std::string bad = line(0, 1);
  CHECK(bad.find("failed       bad_timestamp_echo  (1 of 3 ReceiverReports echoed") !=
        std::string::npos);
  const std::string sub = line(3, 0);
  CHECK(sub.find("sub_millisecond") != std::string::npos);
  CHECK(sub.find("(3 ReceiverReports came, each echo measured under 1 ms") != std::string::npos);
  const std::string noEcho = line(0, 0);
  CHECK(noEcho.find("no_echo") != std::string::npos);
  CHECK(noEcho.find("(3 ReceiverReports came but none") != std::string::npos);
  rep.r.setRttReportsSeen(0);
  const std::string noReport = line(0, 0);
  CHECK(noReport.find("no_report") != std::string::npos);
  CHECK(noReport.find("(no session ReceiverReport") != std::string::npos);
  CHECK(bad.find('(') == sub.find('('));
  CHECK(bad.find('(') == noEcho.find('('));
  CHECK(bad.find('(') == noReport.find('('));
}

TEST_CASE("probe --json: no coordinates leave every tree field null") {
  Report rep;
  rep.r.setCoordsKnown(false);
  rep.r.setHasNextHop(false);
  rep.r.setNoHopReason("coords_required");
  const Json doc = probeJson(rep.r.asReader(), 0);
  CHECK(doc["path"]["lca"].is_null());
  CHECK(doc["path"]["tree_distance"].is_null());
  CHECK(doc["path"]["our_depth"].is_null());
  CHECK(doc["path"]["next_hop"].is_null());
  CHECK(doc["path"]["no_hop_reason"] == "coords_required");
}

TEST_CASE("probe: the stage block names each stage, the tree walk and the verdict") {
  Report rep;
  const std::string text = probeText(rep.r.asReader(), 2100);
  CHECK(text.find("bloom      ok") != std::string::npos);
  CHECK(text.find("via lookup, attempt 2") != std::string::npos);
  CHECK(text.find("next hop relay-a (tree_up)") != std::string::npos);
  CHECK(text.find("session    ok") != std::string::npos);
  CHECK(text.find("rtt        running") != std::string::npos);
  CHECK(text.find("1 up, 1 down via 91b40c6e") != std::string::npos);
  CHECK(text.find("overall: partial (2100 ms)") != std::string::npos);
}

TEST_CASE("probe: what each stage found and its detail start in one column, reason or not") {
  Report rep;
  auto session = rep.r.initSession();
  session.setVerdict("skipped");
  session.setReason("preexisting");
  session.setDetail("an existing session (left intact)");
  auto rtt = rep.r.initRtt();
  rtt.setVerdict("running");
  rtt.setDetail("waiting for the first session ReceiverReport");
  const std::string text = probeText(rep.r.asReader(), 0);
  const auto column = [&](const std::string& needle) {
    const size_t at = text.find(needle);
    REQUIRE(at != std::string::npos);
    return at - text.rfind('\n', at) - 1;
  };
  CHECK(column("(an existing") == column("(waiting for"));
  CHECK(column("(an existing") == column("via lookup"));
  CHECK(text.find("session    skipped      preexisting") != std::string::npos);
  CHECK(text.find(" \n") == std::string::npos);  // no trailing blanks
}

TEST_CASE("probe --json: cleanup says what became of the session") {
  Report rep;
  rep.r.setCleanup("torn_down");  // the probe opened it and tore it down
  Json cleanup = probeJson(rep.r.asReader(), 0)["cleanup"];
  CHECK(cleanup["session_created_and_torn_down"] == true);
  CHECK(cleanup["session_left_intact"] == false);
  CHECK(cleanup["left_intact_reason"].is_null());
  CHECK(
      probeText(rep.r.asReader(), 0).find("cleanup: the session this probe opened was torn down") !=
      std::string::npos);
  for (const char* reason : {"preexisting", "replaced", "adopted_by_traffic"}) {
    rep.r.setCleanup(reason);
    cleanup = probeJson(rep.r.asReader(), 0)["cleanup"];
    CHECK(cleanup["session_created_and_torn_down"] == false);
    CHECK(cleanup["session_left_intact"] == true);
    CHECK(cleanup["left_intact_reason"] == reason);
  }
  CHECK(probeText(rep.r.asReader(), 0).find("left in place (adopted_by_traffic)") !=
        std::string::npos);
  rep.r.setCleanup("");
  const Json none = probeJson(rep.r.asReader(), 0)["cleanup"];
  CHECK(none["left_intact_reason"].is_null());
  CHECK(none["session_left_intact"] == false);
  CHECK(none["session_created_and_torn_down"] == false);
}

}  // namespace
}  // namespace fips::ctl
