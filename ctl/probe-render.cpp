// SPDX-License-Identifier: MIT
// probe output (see probe-render.h).
#include "ctl/probe-render.h"

#include <fmt/format.h>

#include "ctl/table.h"
#include "router/control/json/snapshot-text.h"

namespace fips::ctl {

using router::control::json::hex;
using router::control::json::ipv6Text;

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

std::string coordsText(capnp::List<capnp::Data>::Reader coords) {
  std::string text;
  for (auto addr : coords) text += (text.empty() ? "" : " > ") + hex(addr).substr(0, 8);
  return text.empty() ? "-" : text;
}

bool passed(schema::ProbeStage::Reader s) {
  return s.getVerdict() == "ok" || s.getVerdict() == "skipped";
}

std::string stageLine(const char* name, schema::ProbeStage::Reader s, const std::string& extra) {
  std::string line = fmt::format("{:<10} {:<12}", name, s.getVerdict().cStr());
  if (s.getReason().size() != 0) line += fmt::format(" {}", s.getReason().cStr());
  if (!extra.empty()) line += "  " + extra;
  if (s.getDetail().size() != 0) line += fmt::format("  ({})", s.getDetail().cStr());
  return line + "\n";
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

void settleProbe(schema::ProbeReport::Builder r) {
  const auto running = [](schema::ProbeStage::Builder s) { return s.getVerdict() == "running"; };
  if (running(r.getSession())) {
    auto s = r.initSession();
    s.setVerdict("failed");
    s.setReason("handshake_timeout");
    s.setDetail("the session did not come up within the probe's budget");
    r.initRtt().setVerdict("not_reached");
    return;
  }
  if (running(r.getRtt())) {
    const bool reports = r.getRttReportsSeen() > 0;
    auto s = r.initRtt();
    s.setVerdict("failed");
    s.setReason(reports ? "no_echo" : "no_report");
    s.setDetail(reports ? "ReceiverReports came but none carried a usable timestamp echo"
                        : "no session ReceiverReport came back within the probe's budget");
  }
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
  rtt["zero_samples"] = nullptr;    // not counted by this build's MMP
  rtt["arith_failures"] = nullptr;  // not counted by this build's MMP
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
       // A session the probe opened is left to idle out, not torn down.
       {{"session_created_and_torn_down", false},
        {"session_left_intact", r.getSessionPreexisting() || r.getSessionOpened()},
        {"left_intact_reason", r.getSessionPreexisting() ? Json("preexisting") : Json(nullptr)},
        {"lookup_issued", r.getLookupIssued()},
        {"coords_were_cached", r.getCoordsWereCached()},
        {"identity_was_cached", r.getIdentityWasCached()},
        {"warmups_sent", r.getWarmupsSent()}}},
      {"overall", probeOverall(r)},
      {"elapsed_ms", elapsedMs},
  };
}

std::string probeText(schema::ProbeReport::Reader r, uint64_t elapsedMs) {
  std::string out = fmt::format("probe {} ({})\n  {}\n\n", r.getTargetDisplayName().cStr(),
                                ipv6Text(r.getTargetIpv6()), r.getTargetNpub().cStr());
  out += stageLine("bloom", r.getBloom(), r.getLookupIssued() ? "lookup issued" : "");
  std::string discovery;
  if (r.getDiscoverySource().size() != 0) discovery = "via " + std::string(r.getDiscoverySource());
  if (r.getDiscoveryAttempt() != 0)
    discovery += fmt::format(", attempt {}", r.getDiscoveryAttempt());
  out += stageLine("discovery", r.getDiscovery(), discovery);
  std::string path;
  if (r.getHasNextHop()) {
    path = fmt::format("next hop {} ({})", r.getNextHopDisplayName().cStr(),
                       r.getNextHopClass().cStr());
  }
  out += stageLine("path", r.getPath(), path);
  out += stageLine("session", r.getSession(),
                   r.getPathMtu() != 0 ? fmt::format("path mtu {}", r.getPathMtu()) : "");
  out += stageLine("rtt", r.getRtt(),
                   r.getHasSrtt() ? fmt::format("srtt {:.1f} ms, last sample {} ms", r.getSrttMs(),
                                                r.getLastRttMs())
                                  : "");
  if (r.getCoordsKnown()) {
    out += fmt::format("\nours:   {}\ntheirs: {}\n", coordsText(r.getOurCoords()),
                       coordsText(r.getTheirCoords()));
    if (r.getSameRoot()) {
      out += fmt::format(
          "tree walk: {} up, {} down via {} (depth {}; a local computation, not a "
          "traceroute)\n",
          r.getTreeHopsUp(), r.getTreeHopsDown(), hex(r.getLca()).substr(0, 8), r.getLcaDepth());
    }
  }
  return out + fmt::format("\noverall: {} ({} ms)\n", probeOverall(r), elapsedMs);
}

}  // namespace fips::ctl
