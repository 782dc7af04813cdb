// SPDX-License-Identifier: MIT
// show tree|bloom|cache tables (see mesh-render.h).
#include "ctl/mesh-render.h"

#include <fmt/format.h>

#include "ctl/table.h"
#include "router/control/json/snapshot-text.h"

namespace fips::ctl {

namespace {

using router::control::json::hex;
using router::control::json::ipv6Text;

// "a1b2c3d4 > 5e6f7a8b > ..." (first 8 hex digits of each, self to root).
std::string coordsText(capnp::List<capnp::Data>::Reader coords) {
  std::string text;
  for (auto addr : coords) {
    if (!text.empty()) text += " > ";
    text += hex(addr).substr(0, 8);
  }
  return text.empty() ? "-" : text;
}

std::string statsLine(capnp::List<schema::Counter>::Reader stats) {
  std::string text;
  for (auto c : stats) {
    if (!text.empty()) text += ' ';
    text += fmt::format("{}={}", c.getName().cStr(), c.getValue());
  }
  return text;
}

}  // namespace

std::string treeTable(schema::TreeStatus::Reader t) {
  std::string out = formatTable({
      {"root", hex(t.getRoot())},
      {"is_root", t.getIsRoot() ? "yes" : "no"},
      {"depth", std::to_string(t.getDepth())},
      {"parent", t.getIsRoot()
                     ? std::string("- (root)")
                     : fmt::format("{} ({})", t.getParentDisplayName().cStr(), hex(t.getParent()))},
      {"coords", coordsText(t.getMyCoords())},
      {"declaration", fmt::format("seq {}{}", t.getDeclarationSequence(),
                                  t.getDeclarationSigned() ? ", signed" : ", unsigned")},
  });
  if (t.getPeers().size() == 0) return out + "\nno tree peers\n";
  std::vector<std::vector<std::string>> rows = {{"PEER", "NODE_ADDR", "DEPTH", "DIST", "COORDS"}};
  for (auto p : t.getPeers()) {
    const bool known = p.getHasCoords();
    rows.push_back({p.getDisplayName(), hex(p.getNodeAddr()),
                    known ? std::to_string(p.getDepth()) : "-",
                    known ? std::to_string(p.getDistanceToUs()) : "-",
                    known ? coordsText(p.getCoords()) : "-"});
  }
  return out + "\n" + formatTable(rows) + "\nstats: " + statsLine(t.getStats()) + "\n";
}

std::string bloomTable(schema::BloomStatus::Reader b) {
  std::string out = formatTable({
      {"own_node_addr", hex(b.getOwnNodeAddr())},
      {"leaf_only", b.getIsLeafOnly() ? "yes" : "no"},
      {"sequence", std::to_string(b.getSequence())},
  });
  if (b.getPeerFilters().size() == 0) return out + "\nno peers\n";
  std::vector<std::vector<std::string>> rows = {{"PEER", "NODE_ADDR", "SET_BITS", "FILL", "EST"}};
  for (auto f : b.getPeerFilters()) {
    const bool has = f.getHasFilter();
    rows.push_back(
        {f.getDisplayName(), hex(f.getPeer()), has ? std::to_string(f.getSetBits()) : "-",
         has ? fmt::format("{:.3f}", f.getFillRatio()) : "-",
         has && f.getEstimatedCount() >= 0 ? fmt::format("{:.0f}", f.getEstimatedCount()) : "-"});
  }
  return out + "\n" + formatTable(rows) + "\nstats: " + statsLine(b.getStats()) + "\n";
}

std::string cacheTable(schema::CacheStatus::Reader c) {
  std::string out = formatTable({
      {"entries", fmt::format("{} / {}", c.getCount(), c.getMaxEntries())},
      {"expired", std::to_string(c.getExpired())},
      {"ttl", formatDuration(c.getDefaultTtlMs() / 1000)},
      {"avg_age", formatDuration(c.getAvgAgeMs() / 1000)},
  });
  if (c.getEntries().size() == 0) return out + "\nno cached coordinates\n";
  std::vector<std::vector<std::string>> rows = {{"NAME", "IPV6", "DEPTH", "AGE", "MTU", "COORDS"}};
  for (auto e : c.getEntries()) {
    rows.push_back({e.getDisplayName(), ipv6Text(e.getIpv6()), std::to_string(e.getDepth()),
                    formatDuration(e.getAgeMs() / 1000),
                    e.getPathMtu() == 0 ? "-" : std::to_string(e.getPathMtu()),
                    coordsText(e.getCoords())});
  }
  return out + "\n" + formatTable(rows);
}

}  // namespace fips::ctl
