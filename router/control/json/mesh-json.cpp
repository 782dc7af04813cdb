// SPDX-License-Identifier: MIT
// show_tree|bloom|cache documents (see mesh-json.h).
#include "router/control/json/mesh-json.h"

#include "router/control/json/snapshot-text.h"

namespace fips::router::control::json {

namespace {

Json coordsJson(capnp::List<capnp::Data>::Reader coords) {
  Json list = Json::array();
  for (auto addr : coords) list.push_back(hex(addr));
  return list;
}

Json statsJson(capnp::List<schema::Counter>::Reader stats) {
  Json out = Json::object();
  for (auto c : stats) out[std::string(c.getName())] = c.getValue();
  return out;
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

}  // namespace fips::router::control::json
