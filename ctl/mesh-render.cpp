// SPDX-License-Identifier: MIT
// show tree|bloom|cache output (see mesh-render.h).
#include "ctl/mesh-render.h"

#include <fmt/format.h>

#include "ctl/snapshot-text.h"
#include "ctl/table.h"

namespace fips::ctl {

namespace {

Json coordsJson(capnp::List<capnp::Data>::Reader coords) {
  Json list = Json::array();
  for (auto addr : coords) list.push_back(hex(addr));
  return list;
}

// "a1b2c3d4 > 5e6f7a8b > ..." (first 8 hex digits of each, self to root).
std::string coordsText(capnp::List<capnp::Data>::Reader coords) {
  std::string text;
  for (auto addr : coords) {
    if (!text.empty()) text += " > ";
    text += hex(addr).substr(0, 8);
  }
  return text.empty() ? "-" : text;
}

Json statsJson(capnp::List<schema::Counter>::Reader stats) {
  Json out = Json::object();
  for (auto c : stats) out[std::string(c.getName())] = c.getValue();
  return out;
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

Json treeJson(schema::TreeStatus::Reader t) {
  Json peers = Json::array();
  for (auto p : t.getPeers()) {
    Json peer{{"node_addr", hex(p.getNodeAddr())}, {"display_name", p.getDisplayName()}};
    if (p.getHasCoords()) {
      peer["depth"] = p.getDepth();
      peer["root"] = hex(p.getRoot());
      peer["coords"] = coordsJson(p.getCoords());
      peer["distance_to_us"] = p.getDistanceToUs();
    }
    peers.push_back(std::move(peer));
  }
  return Json{
      {"my_node_addr", hex(t.getMyNodeAddr())},
      {"root", hex(t.getRoot())},
      {"root_npub", t.getRootNpub().size() == 0 ? Json(nullptr) : Json(t.getRootNpub().cStr())},
      {"is_root", t.getIsRoot()},
      {"depth", t.getDepth()},
      {"my_coords", coordsJson(t.getMyCoords())},
      {"parent", hex(t.getParent())},
      {"parent_display_name", t.getParentDisplayName()},
      {"declaration_sequence", t.getDeclarationSequence()},
      {"declaration_signed", t.getDeclarationSigned()},
      {"peer_tree_count", t.getPeers().size()},
      {"peers", peers},
      {"stats", statsJson(t.getStats())},
  };
}

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

Json bloomJson(schema::BloomStatus::Reader b) {
  Json filters = Json::array();
  for (auto f : b.getPeerFilters()) {
    Json entry{{"peer", hex(f.getPeer())},
               {"display_name", f.getDisplayName()},
               {"has_filter", f.getHasFilter()}};
    if (f.getHasFilter()) {
      entry["estimated_count"] =
          f.getEstimatedCount() < 0 ? Json(nullptr) : Json(f.getEstimatedCount());
      entry["set_bits"] = f.getSetBits();
      entry["fill_ratio"] = f.getFillRatio();
    }
    filters.push_back(std::move(entry));
  }
  return Json{
      {"own_node_addr", hex(b.getOwnNodeAddr())},
      {"is_leaf_only", b.getIsLeafOnly()},
      {"sequence", b.getSequence()},
      {"leaf_dependent_count", 0},
      {"leaf_dependents", Json::array()},
      {"peer_filters", filters},
      {"uptree_fill_ratio", nullptr},
      {"uptree_estimated_count", nullptr},
      {"stats", statsJson(b.getStats())},
  };
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

Json cacheJson(schema::CacheStatus::Reader c) {
  Json entries = Json::array();
  for (auto e : c.getEntries()) {
    Json entry{
        {"node_addr", hex(e.getNodeAddr())},   {"display_name", e.getDisplayName()},
        {"ipv6_addr", ipv6Text(e.getIpv6())},  {"depth", e.getDepth()},
        {"coords", coordsJson(e.getCoords())}, {"age_ms", e.getAgeMs()},
        {"last_used_ms", e.getLastUsedMs()},
    };
    if (e.getPathMtu() != 0) entry["path_mtu"] = e.getPathMtu();
    entries.push_back(std::move(entry));
  }
  const double fill =
      c.getMaxEntries() == 0 ? 0.0 : static_cast<double>(c.getCount()) / c.getMaxEntries();
  return Json{
      {"count", c.getCount()},     {"max_entries", c.getMaxEntries()},
      {"fill_ratio", fill},        {"default_ttl_ms", c.getDefaultTtlMs()},
      {"expired", c.getExpired()}, {"avg_age_ms", c.getAvgAgeMs()},
      {"entries", entries},
  };
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
