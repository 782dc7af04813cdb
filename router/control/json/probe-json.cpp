// SPDX-License-Identifier: MIT
// The probe report document (see probe-json.h).
#include "router/control/json/probe-json.h"

#include <string>

#include "router/control/json/snapshot-text.h"

namespace fips::router::control::json {

namespace {

Json orNull(capnp::Text::Reader text) {
  return text.size() == 0 ? Json(nullptr) : Json(text.cStr());
}

Json stageJson(schema::ProbeStage::Reader s) {
  return Json{{"verdict", s.getVerdict()},
              {"reason", orNull(s.getReason())},
              {"detail", orNull(s.getDetail())},
              {"elapsed_ms", s.getElapsedMs() < 0 ? Json(nullptr) : Json(s.getElapsedMs())}};
}

// Node addresses in full hex, as the reference's report (NodeAddr's Display).
Json coordsJson(capnp::List<capnp::Data>::Reader coords) {
  Json list = Json::array();
  for (auto addr : coords) list.push_back(hex(addr));
  return list;
}

bool passed(schema::ProbeStage::Reader s) {
  return s.getVerdict() == "ok" || s.getVerdict() == "skipped";
}

// The reference's cleanup block from ProbeJob's cleanup: "torn_down" (the
// probe removed the session it opened), a reason the session was left in
// place ("preexisting", "replaced", "adopted_by_traffic"), or "" (no
// session, or the teardown not run yet).
Json cleanupJson(schema::ProbeReport::Reader r) {
  const std::string cleanup = r.getCleanup();
  const bool tornDown = cleanup == "torn_down";
  const bool leftIntact = !tornDown && !cleanup.empty();
  return Json{{"session_created_and_torn_down", tornDown},
              {"session_left_intact", leftIntact},
              {"left_intact_reason", leftIntact ? Json(cleanup) : Json(nullptr)},
              {"lookup_issued", r.getLookupIssued()},
              {"coords_were_cached", r.getCoordsWereCached()},
              {"identity_was_cached", r.getIdentityWasCached()},
              {"warmups_sent", r.getWarmupsSent()}};
}

}  // namespace

std::string probeOverall(schema::ProbeReport::Reader r) {
  for (auto s : {r.getBloom(), r.getDiscovery(), r.getSession()}) {
    if (s.getVerdict() == "failed") return "failed";
  }
  const bool allPassed = passed(r.getBloom()) && passed(r.getDiscovery()) && passed(r.getPath()) &&
                         passed(r.getSession());
  return allPassed && r.getRtt().getVerdict() == "ok" ? "ok" : "partial";
}

Json probeJson(schema::ProbeReport::Reader r, uint64_t elapsedMs) {
  Json timeouts = Json::array();
  for (auto t : r.getAttemptTimeoutsSecs()) timeouts.push_back(t);
  Json path = stageJson(r.getPath());
  path["computed_locally"] = true;
  path["observed"] = false;
  path["coords_known"] = r.getCoordsKnown();
  const bool tree = r.getCoordsKnown() && r.getSameRoot();
  path["our_coords"] = coordsJson(r.getOurCoords());
  path["their_coords"] = coordsJson(r.getTheirCoords());
  path["our_depth"] = r.getCoordsKnown() ? Json(r.getOurCoords().size() - 1) : Json(nullptr);
  path["their_depth"] = r.getCoordsKnown() ? Json(r.getTheirCoords().size() - 1) : Json(nullptr);
  path["same_root"] = r.getCoordsKnown() ? Json(r.getSameRoot()) : Json(nullptr);
  path["lca"] = tree ? Json(hex(r.getLca())) : Json(nullptr);
  path["lca_depth"] = tree ? Json(r.getLcaDepth()) : Json(nullptr);
  path["tree_hops_up"] = tree ? Json(r.getTreeHopsUp()) : Json(nullptr);
  path["tree_hops_down"] = tree ? Json(r.getTreeHopsDown()) : Json(nullptr);
  path["tree_distance"] = tree ? Json(r.getTreeHopsUp() + r.getTreeHopsDown()) : Json(nullptr);
  path["next_hop"] = nullptr;
  if (r.getHasNextHop()) {
    const bool direct = hex(r.getNextHop()) == hex(r.getTargetNodeAddr());
    path["next_hop"] = Json{{"node_addr", hex(r.getNextHop())},
                            {"display_name", r.getNextHopDisplayName()},
                            {"class", r.getNextHopClass()},
                            {"direct_peer", direct}};
  }
  path["no_hop_reason"] = orNull(r.getNoHopReason());
  Json bloom = stageJson(r.getBloom());
  bloom["fanout"] = r.getLookupFanout() < 0 ? Json(nullptr) : Json(r.getLookupFanout());
  Json discovery = stageJson(r.getDiscovery());
  discovery["source"] = orNull(r.getDiscoverySource());
  discovery["attempts"] =
      r.getDiscoveryAttempt() == 0 ? Json(nullptr) : Json(r.getDiscoveryAttempt());
  discovery["attempt_timeouts_secs"] = timeouts;
  Json session = stageJson(r.getSession());
  session["preexisting"] = r.getSessionPreexisting();
  session["established"] = r.getSessionEstablished();
  if (r.getPathMtu() != 0) session["path_mtu"] = r.getPathMtu();
  Json rtt = stageJson(r.getRtt());
  rtt["rtt_ms"] = r.getHasSrtt() ? Json(r.getLastRttMs()) : Json(nullptr);
  rtt["srtt_ms"] = r.getHasSrtt() ? Json(r.getSrttMs()) : Json(nullptr);
  rtt["samples"] = r.getRttSamples();
  rtt["reports_seen"] = r.getRttReportsSeen();
  rtt["zero_samples"] = r.getRttZeroSamples();
  rtt["arith_failures"] = r.getRttArithFailures();
  return Json{
      {"target",
       {{"npub", r.getTargetNpub()},
        {"node_addr", hex(r.getTargetNodeAddr())},
        {"display_name", r.getTargetDisplayName()},
        {"ipv6_addr", ipv6Text(r.getTargetIpv6())}}},
      {"bloom", bloom},
      {"discovery", discovery},
      {"path", path},
      {"session", session},
      {"rtt", rtt},
      {"cleanup", cleanupJson(r)},
      {"overall", probeOverall(r)},
      {"elapsed_ms", elapsedMs},
      {"tick_ms", r.getTickMs()},
  };
}

}  // namespace fips::router::control::json
