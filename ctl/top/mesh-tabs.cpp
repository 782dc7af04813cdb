// SPDX-License-Identifier: MIT
// fipstop's Tree, Filters and Routing tabs (the reference's tree, bloom and
// routing views, from show tree|bloom|cache and the discovery counters).
// See tab-views.h.
#include <fmt/format.h>

#include "ctl/table.h"
#include "ctl/top/tab-views.h"
#include "router/control/json/snapshot-text.h"

namespace fips::ctl::top {

namespace {

using router::control::json::hex;
using router::control::json::ipv6Text;

// "a… → b… → root…", self or the destination first, each hop its first
// `hexChars` hex digits and "…".
std::string coordsText(capnp::List<capnp::Data>::Reader coords, size_t hexChars) {
  std::string out;
  for (auto c : coords)
    out += (out.empty() ? "" : " \u2192 ") + hex(c).substr(0, hexChars) + "\u2026";
  return out.empty() ? "-" : out;
}

// Hops in a table cell: 8 hex digits (the reference's tree path shows 5).
constexpr size_t CELL_HOP_HEX = 8;

// The name columns of the reference (16 columns, then "…").
constexpr ColumnFit NAME{0, 16};

// A table's Coords column: elided between hops down to the first and the
// last hop (25 columns).
constexpr ColumnFit COORDS{0, 0, 25, elideCoords};

// "  label:       value", the value wrapped at word boundaries to `width`
// with its continuation lines under its first.
void wrappedLine(TabView& view, const std::string& label, const std::string& value, size_t width) {
  const auto lines = wrapWords(value, width > 15 ? width - 15 : 1, 0);
  for (size_t i = 0; i < lines.size(); ++i)
    view.lines.push_back({fmt::format("  {:<13}{}", i == 0 ? label : "", lines[i])});
}

void counterTable(TabView& view, const char* title, capnp::List<schema::Counter>::Reader stats,
                  size_t width) {
  view.lines.push_back({fmt::format(" {}", title), Tone::Title});
  std::vector<TableRow> rows{{{"Counter", "Value"}}};
  for (auto c : stats) {
    std::string name = c.getName();
    if (c.getLabelName().size() > 0)
      name += fmt::format("{{{}={}}}", c.getLabelName().cStr(), c.getLabelValue().cStr());
    rows.push_back({{name, std::to_string(c.getValue())}, false});
  }
  appendTable(view, std::move(rows), -1, {{0, 0, 24, elideMiddle}}, width);
  view.selectableRows = 0;
}

}  // namespace

TabView treeTab(const TopData& data, size_t width) {
  TabView view;
  const auto& a = *data.answers;
  if (!a.hasTree) return unavailableTab("Tree (show tree)");
  auto t = a.snapshot.asReader().getTree();
  view.lines.push_back({" Tree Position", Tone::Title});
  // The root's npub on a line of its own, as the reference, so that both
  // show whole at 80 columns.
  view.lines.push_back({"  root:        " + hex(t.getRoot())});
  if (t.getRootNpub().size() > 0)
    view.lines.push_back({fmt::format("  root npub:   {}", t.getRootNpub().cStr())});
  view.lines.push_back({fmt::format("  depth:       {}{}", t.getDepth(),
                                    t.getIsRoot() ? "  (this node is the root)" : "")});
  if (!t.getIsRoot()) {
    view.lines.push_back({fmt::format("  parent:      {} ({})", t.getParentDisplayName().cStr(),
                                      shortId(hex(t.getParent())))});
  }
  wrappedLine(view, "coords:", coordsText(t.getMyCoords(), 16), width);
  view.lines.push_back({fmt::format("  declaration: seq {}, {}", t.getDeclarationSequence(),
                                    t.getDeclarationSigned() ? "signed" : "unsigned")});
  view.lines.push_back({fmt::format(" Tree Peers ({})", t.getPeers().size()), Tone::Title});
  std::vector<TableRow> rows{{{"Name", "Node addr", "Depth", "Distance", "Coords"}}};
  for (auto p : t.getPeers()) {
    if (!p.getHasCoords()) {
      rows.push_back({{std::string(p.getDisplayName()), shortId(hex(p.getNodeAddr())), "-", "-",
                       "(no announce yet)"},
                      false});
      continue;
    }
    rows.push_back({{std::string(p.getDisplayName()), shortId(hex(p.getNodeAddr())),
                     std::to_string(p.getDepth()), std::to_string(p.getDistanceToUs()),
                     coordsText(p.getCoords(), CELL_HOP_HEX)},
                    false});
  }
  appendTable(view, std::move(rows), -1, {NAME, {0, 0, 9}, {}, {}, COORDS}, width);
  view.selectableRows = 0;
  counterTable(view, "Tree Announce Stats", t.getStats(), width);
  return view;
}

TabView filtersTab(const TopData& data, size_t width) {
  TabView view;
  const auto& a = *data.answers;
  if (!a.hasBloom) return unavailableTab("Filters (show bloom)");
  auto b = a.snapshot.asReader().getBloom();
  view.lines.push_back({" Bloom Filter State", Tone::Title});
  view.lines.push_back({"  own node_addr: " + hex(b.getOwnNodeAddr())});
  view.lines.push_back({fmt::format("  leaf only:     {}", b.getIsLeafOnly() ? "yes" : "no")});
  view.lines.push_back({fmt::format("  sequence:      {}", b.getSequence())});
  view.lines.push_back({fmt::format(" Peer Filters ({})", b.getPeerFilters().size()), Tone::Title});
  std::vector<TableRow> rows{{{"Name", "Node addr", "Set bits", "Fill", "Est. count"}}};
  for (auto f : b.getPeerFilters()) {
    if (!f.getHasFilter()) {
      rows.push_back({{std::string(f.getDisplayName()), shortId(hex(f.getPeer())), "-", "-",
                       "(no filter yet)"},
                      false});
      continue;
    }
    const double est = f.getEstimatedCount();
    rows.push_back(
        {{std::string(f.getDisplayName()), shortId(hex(f.getPeer())),
          std::to_string(f.getSetBits()), fmt::format("{:.1f}%", f.getFillRatio() * 100.0),
          est < 0 ? std::string("saturated") : fmt::format("{:.0f}", est)},
         false});
  }
  appendTable(view, std::move(rows), -1, {NAME}, width);
  view.selectableRows = 0;
  counterTable(view, "Bloom Announce Stats", b.getStats(), width);
  return view;
}

TabView routingTab(const TopData& data, size_t width) {
  TabView view;
  const auto& a = *data.answers;
  auto snap = a.snapshot.asReader();
  view.lines.push_back({" Routing State", Tone::Title});
  if (a.hasRouting) {
    auto r = snap.getRouting();
    view.lines.push_back({fmt::format("  coord cache: {}  identity cache: {}  recent requests: {}",
                                      r.getCoordCacheEntries(), r.getIdentityCacheEntries(),
                                      r.getRecentRequests())});
    view.lines.push_back({fmt::format("  pending TUN: {} destinations, {} packets",
                                      r.getPendingTunDestinations(), r.getPendingTunPackets())});
    view.lines.push_back(
        {fmt::format(" Pending Lookups ({})", r.getPendingLookups().size()), Tone::Title});
    std::vector<TableRow> lookups{{{"Target", "Node addr", "Attempt", "Age"}}};
    for (auto l : r.getPendingLookups()) {
      lookups.push_back({{std::string(l.getDisplayName()), shortId(hex(l.getTarget())),
                          std::to_string(l.getAttempt()), formatDuration(l.getAgeMs() / 1000)},
                         false});
    }
    appendTable(view, std::move(lookups), -1, {NAME}, width);
    view.lines.push_back({fmt::format(" Retries ({})", r.getRetries().size()), Tone::Title});
    std::vector<TableRow> retries{{{"Peer", "Node addr", "Retries", "Next dial", "Auto"}}};
    for (auto t : r.getRetries()) {
      const uint64_t next = t.getRetryAfterMs();
      retries.push_back({{std::string(t.getDisplayName()), shortId(hex(t.getNodeAddr())),
                          std::to_string(t.getRetryCount()),
                          next == 0 ? std::string("-")
                                    : (next > data.nowUnixMs
                                           ? "in " + formatDuration((next - data.nowUnixMs) / 1000)
                                           : std::string("now")),
                          t.getAutoReconnect() ? "yes" : "no"},
                         false});
    }
    appendTable(view, std::move(retries), -1, {NAME}, width);
    view.lines.push_back({" Routing Statistics", Tone::Title});
    std::vector<TableRow> rows{{{"Counter", "Value"}}};
    for (auto c : r.getCounters()) {
      rows.push_back({{fmt::format("{}.{}", c.getFamily().cStr(), c.getName().cStr()),
                       std::to_string(c.getValue())},
                      false});
    }
    appendTable(view, std::move(rows), -1, {{0, 0, 24, elideMiddle}}, width);
  } else {
    view.lines.push_back({"  not available from this daemon yet (show routing)", Tone::Dim});
  }
  if (a.hasCache) {
    auto cache = snap.getCache();
    view.lines.push_back(
        {fmt::format(" Coordinate Cache ({} of {}, {} expired, ttl {}s)", cache.getCount(),
                     cache.getMaxEntries(), cache.getExpired(), cache.getDefaultTtlMs() / 1000),
         Tone::Title});
    std::vector<TableRow> rows{{{"Name", "IPv6", "Depth", "Age", "Path MTU", "Coords"}}};
    for (auto e : cache.getEntries()) {
      rows.push_back({{std::string(e.getDisplayName()), ipv6Text(e.getIpv6()),
                       std::to_string(e.getDepth()), formatDuration(e.getAgeMs() / 1000),
                       e.getPathMtu() == 0 ? std::string("-") : std::to_string(e.getPathMtu()),
                       coordsText(e.getCoords(), CELL_HOP_HEX)},
                      false});
    }
    // Narrower screens: the IPv6 address and the coordinates are elided
    // in the middle, else the coordinates go.
    appendTable(view, std::move(rows), -1,
                {NAME, {0, 0, 12, elideMiddle, 1}, {}, {}, {}, {1, 0, 25, elideCoords, 1}}, width);
  }
  view.selectableRows = 0;
  return view;
}

}  // namespace fips::ctl::top
