// SPDX-License-Identifier: MIT
// The probe report document (see probe-json.h).
#include "router/control/json/probe-json.h"

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
              {"elapsed_ms", nullptr}};
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

// Why a session is still there after the probe (the reference's
// "preexisting"; "idle_timeout": the probe opened it and, as a departure
// from the reference's teardown, leaves it to node.session.idle_timeout_secs).
Json leftIntactReason(schema::ProbeReport::Reader r) {
  if (r.getSessionPreexisting()) return "preexisting";
  if (r.getSessionOpened()) return "idle_timeout";
  return nullptr;
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
  bloom["fanout"] = nullptr;  // how many peers the request reached is not reported here
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
      {"cleanup",
       {{"session_created_and_torn_down", false},
        {"session_left_intact", r.getSessionPreexisting() || r.getSessionOpened()},
        {"left_intact_reason", leftIntactReason(r)},
        {"lookup_issued", r.getLookupIssued()},
        {"coords_were_cached", r.getCoordsWereCached()},
        {"identity_was_cached", r.getIdentityWasCached()},
        {"warmups_sent", r.getWarmupsSent()}}},
      {"overall", probeOverall(r)},
      {"elapsed_ms", elapsedMs},
  };
}

}  // namespace fips::router::control::json
