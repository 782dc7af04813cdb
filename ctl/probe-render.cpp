// SPDX-License-Identifier: MIT
// probe output (see probe-render.h).
#include "ctl/probe-render.h"

#include <fmt/format.h>

#include "ctl/table.h"
#include "router/control/json/probe-json.h"
#include "router/control/json/snapshot-text.h"

namespace fips::ctl {

using router::control::json::hex;
using router::control::json::ipv6Text;
using router::control::json::probeOverall;

namespace {

std::string coordsText(capnp::List<capnp::Data>::Reader coords) {
  std::string text;
  for (auto addr : coords) text += (text.empty() ? "" : " > ") + hex(addr).substr(0, 8);
  return text.empty() ? "-" : text;
}

// Columns: stage, verdict, reason (as wide as the longest reason,
// "bad_timestamp_echo"), then what the stage found and its detail; trailing
// blanks dropped.
std::string stageLine(const char* name, schema::ProbeStage::Reader s, const std::string& extra) {
  std::string line =
      fmt::format("{:<10} {:<12} {:<18}", name, s.getVerdict().cStr(), s.getReason().cStr());
  if (!extra.empty()) line += "  " + extra;
  if (s.getDetail().size() != 0) line += fmt::format("  ({})", s.getDetail().cStr());
  line.erase(line.find_last_not_of(' ') + 1);
  return line + "\n";
}

// What the probe left behind (ProbeJob's cleanup).
std::string cleanupText(capnp::Text::Reader cleanup) {
  if (cleanup == "torn_down") return "the session this probe opened was torn down";
  if (cleanup.size() != 0) return fmt::format("the session was left in place ({})", cleanup.cStr());
  return "nothing to clean up";
}

}  // namespace

std::string probeText(schema::ProbeReport::Reader r, uint64_t elapsedMs) {
  std::string out = fmt::format("probe {} ({})\n  {}\n\n", r.getTargetDisplayName().cStr(),
                                ipv6Text(r.getTargetIpv6()), r.getTargetNpub().cStr());
  std::string bloom;
  if (r.getLookupIssued()) {
    bloom = r.getLookupFanout() < 0 ? "lookup issued"
                                    : fmt::format("lookup issued to {} peer{}", r.getLookupFanout(),
                                                  r.getLookupFanout() == 1 ? "" : "s");
  }
  out += stageLine("bloom", r.getBloom(), bloom);
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
  return out + fmt::format("\ncleanup: {}\noverall: {} ({} ms)\n", cleanupText(r.getCleanup()),
                           probeOverall(r), elapsedMs);
}

}  // namespace fips::ctl
