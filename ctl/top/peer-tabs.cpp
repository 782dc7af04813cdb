// SPDX-License-Identifier: MIT
// fipstop's Peers and Transports tabs: tables with a selectable row and
// its detail view (the reference's peers and transports views: peers
// grouped by tree role with their link MMP columns, transports collapsed
// until expanded; the reference's EffD column is not shown). See
// tab-views.h.
#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "ctl/table.h"
#include "ctl/top/tab-views.h"
#include "router/control/json/mmp-json.h"
#include "router/control/json/snapshot-text.h"

namespace fips::ctl::top {

namespace {

using router::control::json::hex;
using router::control::json::ipv6Text;

const char* direction(bool outbound) {
  return outbound ? "out" : "in";
}

// "  label         value": a 14-column label (the longest is 13) so that a
// full npub (63 characters) ends in column 79 and shows whole at 80 columns.
void detailLine(TabView& view, const char* label, const std::string& value) {
  view.lines.push_back({fmt::format("  {:<14}{}", label, value)});
}

void peerDetail(TabView& view, schema::PeerStatus::Reader p, uint64_t nowMs) {
  view.lines.push_back({fmt::format(" Peer Detail: {}", p.getDisplayName().cStr()), Tone::Title});
  detailLine(view, "npub", p.getNpub());
  detailLine(view, "node_addr", hex(p.getNodeAddr()));
  detailLine(view, "ipv6", ipv6Text(p.getIpv6()));
  detailLine(view, "transport",
             fmt::format("{} (id {})", p.getTransportName().cStr(), p.getTransportId()));
  detailLine(view, "address", p.getTransportAddr());
  detailLine(view, "direction", p.getOutbound() ? "outbound" : "inbound");
  detailLine(view, "up", formatDuration(secondsSince(p.getAuthenticatedAtMs(), nowMs)));
  detailLine(view, "last seen", formatDuration(secondsSince(p.getLastSeenMs(), nowMs)) + " ago");
  detailLine(view, "our index", fmt::format("{:#010x}", p.getOurIndex()));
  detailLine(view, "their index", fmt::format("{:#010x}", p.getTheirIndex()));
  detailLine(view, "rekeys",
             fmt::format("{}{}", p.getRekeys(), p.getRekeyInProgress() ? " (in progress)" : ""));
  auto st = p.getStats();
  detailLine(view, "packets tx/rx",
             fmt::format("{} / {}", st.getPacketsSent(), st.getPacketsRecv()));
  detailLine(view, "bytes tx/rx",
             formatBytes(st.getBytesSent()) + " / " + formatBytes(st.getBytesRecv()));
  auto m = p.getMmp();
  view.lines.push_back({" Link MMP", Tone::Title});
  detailLine(view, "mode", m.getMode());
  detailLine(view, "srtt",
             m.getHasSrtt()
                 ? fmt::format("{:.1f}ms (rttvar {:.1f}ms)", m.getSrttMs(), m.getRttvarMs())
                 : "-");
  detailLine(view, "loss", fmt::format("{:.4f}", m.getLossRate()));
  detailLine(view, "etx", fmt::format("{:.2f}", m.getEtx()));
  detailLine(view, "lqi",
             router::control::json::hasLqi(m) ? fmt::format("{:.2f}", router::control::json::lqi(m))
                                              : "-");
  detailLine(view, "goodput", formatThroughput(m.getGoodputBps()));
  detailLine(view, "delivery",
             fmt::format("fwd {:.3f}, rev {:.3f}", m.getDeliveryRatioForward(),
                         m.getDeliveryRatioReverse()));
  detailLine(view, "jitter", fmt::format("{}us", m.getJitterUs()));
  detailLine(view, "link cost", fmt::format("{:.2f}", m.getLinkCost()));
  detailLine(view, "ecn ce", std::to_string(m.getEcnCeCount()));
  view.lines.push_back({"  Esc: back to the table  Del: disconnect", Tone::Dim});
}

// The peer on a link as the Peers tab names it (its display name: the
// alias, else the short npub), matched by npub; the link's short npub when
// it is no peer (yet).
std::string linkPeerName(const Answers& a, const capnp::Text::Reader npub) {
  if (a.hasPeers) {
    for (auto p : a.snapshot.asReader().getPeers())
      if (p.getNpub() == npub && p.getDisplayName().size() > 0) return p.getDisplayName();
  }
  return shortId(npub);
}

void transportDetail(TabView& view, const Answers& a, schema::TransportStatus::Reader t,
                     capnp::List<schema::LinkStatus>::Reader links, uint64_t nowMs) {
  view.lines.push_back({fmt::format(" Transport Detail: {}", t.getName().cStr()), Tone::Title});
  detailLine(view, "id", std::to_string(t.getTransportId()));
  detailLine(view, "type", t.getType());
  detailLine(view, "state", t.getState());
  std::string addrs;
  for (auto local : t.getLocalAddrs()) addrs += (addrs.empty() ? "" : ", ") + std::string(local);
  detailLine(view, "local", addrs.empty() ? "-" : addrs);
  detailLine(view, "packets tx/rx", fmt::format("{} / {}", t.getPacketsSent(), t.getPacketsRecv()));
  detailLine(view, "bytes tx/rx",
             formatBytes(t.getBytesSent()) + " / " + formatBytes(t.getBytesRecv()));
  detailLine(view, "worker tx/rx", fmt::format("{} / {}", t.getWorkerSent(), t.getWorkerRecv()));
  detailLine(view, "send errors", std::to_string(t.getSendErrors()));
  detailLine(view, "kernel drops", std::to_string(t.getKernelDrops()));
  for (auto c : t.getCounters()) detailLine(view, c.getName().cStr(), std::to_string(c.getValue()));
  std::vector<TableRow> rows{{{"Link", "Peer", "Dir", "Up", "Idle"}}};
  for (auto l : links) {
    if (l.getTransportId() != t.getTransportId()) continue;
    rows.push_back(
        {{std::string(l.getRemoteAddr()), linkPeerName(a, l.getNpub()), direction(l.getOutbound()),
          formatDuration(secondsSince(l.getCreatedAtMs(), nowMs)),
          formatDuration(secondsSince(l.getLastRecvMs(), nowMs))}});
  }
  view.lines.push_back({fmt::format(" Links ({})", rows.size() - 1), Tone::Title});
  appendTable(view, rows, -1);
  view.selectableRows = 0;
  view.lines.push_back({"  Esc: back to the table", Tone::Dim});
}

// A peer's group: our parent, a peer whose coordinates run through us
// (its second hop is our node address), or another.
PeerRole roleOf(schema::PeerStatus::Reader p, const Answers& a) {
  if (!a.hasTree) return PeerRole::Other;
  auto tree = a.snapshot.asReader().getTree();
  if (!tree.getIsRoot() && tree.getParent() == p.getNodeAddr()) return PeerRole::Parent;
  for (auto tp : tree.getPeers()) {
    if (tp.getNodeAddr() != p.getNodeAddr()) continue;
    auto coords = tp.getCoords();
    if (tp.getHasCoords() && coords.size() >= 2 && coords[1] == tree.getMyNodeAddr())
      return PeerRole::Child;
  }
  return PeerRole::Other;
}

double lqiOrLast(schema::PeerStatus::Reader p) {
  auto m = p.getMmp();
  return router::control::json::hasLqi(m) ? router::control::json::lqi(m)
                                          : std::numeric_limits<double>::infinity();
}

const char* roleLabel(PeerRole role) {
  switch (role) {
    case PeerRole::Parent:
      return "\u2500\u2500 Parent \u2500\u2500";
    case PeerRole::Child:
      return "\u2500\u2500 STP Children \u2500\u2500";
    case PeerRole::Other:
      break;
  }
  return "\u2500\u2500 Other \u2500\u2500";
}

}  // namespace

std::vector<unsigned> peerOrder(const TopData& data, std::vector<PeerRole>* roles) {
  const auto& a = *data.answers;
  std::vector<unsigned> order;
  if (!a.hasPeers) return order;
  auto peers = a.snapshot.asReader().getPeers();
  std::vector<PeerRole> role(peers.size());
  for (unsigned i = 0; i < peers.size(); ++i) {
    order.push_back(i);
    role[i] = roleOf(peers[i], a);
  }
  std::stable_sort(order.begin(), order.end(), [&](unsigned x, unsigned y) {
    if (role[x] != role[y]) return role[x] < role[y];
    return lqiOrLast(peers[x]) < lqiOrLast(peers[y]);
  });
  if (roles != nullptr) {
    roles->clear();
    for (unsigned i : order) roles->push_back(role[i]);
  }
  return order;
}

TabView peersTab(const ViewState& state, const TopData& data, size_t width) {
  TabView view;
  const auto& a = *data.answers;
  if (!a.hasPeers) return unavailableTab("Peers (show peers)");
  auto peers = a.snapshot.asReader().getPeers();
  std::vector<PeerRole> roles;
  const auto order = peerOrder(data, &roles);
  if (state.detail && state.selected >= 0 && state.selected < int(peers.size())) {
    peerDetail(view, peers[order[static_cast<size_t>(state.selected)]], data.nowUnixMs);
    view.selectableRows = static_cast<int>(peers.size());
    return view;
  }
  view.lines.push_back({fmt::format(" Peers ({})", peers.size()), Tone::Title});
  std::vector<TableRow> rows{{{"Name", "Npub", "Transport", "Dir", "SRTT", "Loss", "LQI", "Goodput",
                               "Pkts Tx", "Pkts Rx", "Up"}}};
  for (size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || roles[k] != roles[k - 1]) {
      if (k > 0) rows.push_back({{""}, false});
      rows.push_back({{roleLabel(roles[k])}, false});
    }
    auto p = peers[order[k]];
    auto m = p.getMmp();
    const bool lqi = router::control::json::hasLqi(m);
    rows.push_back(
        {{std::string(p.getDisplayName()), shortId(p.getNpub()),
          fmt::format("{}/{}", p.getTransportType().cStr(), p.getTransportAddr().cStr()),
          direction(p.getOutbound()), m.getHasSrtt() ? fmt::format("{:.1f}ms", m.getSrttMs()) : "-",
          fmt::format("{:.3f}", m.getHasSmoothedLoss() ? m.getSmoothedLoss() : m.getLossRate()),
          lqi ? fmt::format("{:.2f}", router::control::json::lqi(m)) : "-",
          formatThroughput(m.getGoodputBps()), std::to_string(p.getStats().getPacketsSent()),
          std::to_string(p.getStats().getPacketsRecv()),
          formatDuration(secondsSince(p.getAuthenticatedAtMs(), data.nowUnixMs))}});
  }
  // Narrower screens: Npub (whole in the detail) goes first, then Up,
  // then the packet counts unless eliding the transport address in the
  // middle is enough.
  appendTable(view, std::move(rows), state.selected,
              {{0, 16}, {4}, {0, 0, 14, elideMiddle, 2}, {}, {}, {}, {}, {}, {2}, {2}, {3}}, width);
  if (peers.size() == 0) view.lines.push_back({"  no peers", Tone::Dim});
  return view;
}

TabView transportsTab(const ViewState& state, const TopData& data, size_t width) {
  TabView view;
  const auto& a = *data.answers;
  if (!a.hasTransports) return unavailableTab("Transports (show transports)");
  auto snap = a.snapshot.asReader();
  auto transports = snap.getTransports();
  auto links = snap.getLinks();
  if (state.detail && state.selected >= 0 && state.selected < int(transports.size())) {
    transportDetail(view, a, transports[state.selected], links, data.nowUnixMs);
    view.selectableRows = static_cast<int>(transports.size());
    return view;
  }
  view.lines.push_back({fmt::format(" Transports ({})", transports.size()), Tone::Title});
  std::vector<TableRow> rows{
      {{"Transport / Link", "State", "Peer", "Pkts Tx", "Pkts Rx", "Tx", "Rx", "Drops"}}};
  int index = 0;
  for (auto t : transports) {
    size_t linkCount = 0;
    for (auto l : links) linkCount += l.getTransportId() == t.getTransportId() ? 1 : 0;
    const bool open = a.hasLinks && state.expanded.count(index++) > 0;
    std::string local = t.getLocalAddrs().size() > 0 ? std::string(t.getLocalAddrs()[0]) : "-";
    rows.push_back({{fmt::format("{} {} {}", open ? "\u25be" : "\u25b8", t.getName().cStr(), local),
                     std::string(t.getState()),
                     a.hasLinks ? fmt::format("{} link{}", linkCount, linkCount == 1 ? "" : "s")
                                : std::string(),
                     std::to_string(t.getPacketsSent()), std::to_string(t.getPacketsRecv()),
                     formatBytes(t.getBytesSent()), formatBytes(t.getBytesRecv()),
                     std::to_string(t.getKernelDrops())}});
    if (!open) continue;
    for (auto l : links) {
      if (l.getTransportId() != t.getTransportId()) continue;
      rows.push_back({{"  \u2514 " + std::string(l.getRemoteAddr()), std::string(l.getState()),
                       linkPeerName(a, l.getNpub()), "", "", "", "", ""},
                      false});
    }
  }
  // Narrower screens: the packet counts go first, then Drops unless
  // eliding the transport's name and address in the middle is enough.
  appendTable(view, std::move(rows), state.selected,
              {{0, 0, 16, elideMiddle, 1}, {}, {0, 16}, {2}, {2}, {}, {}, {1}}, width);
  return view;
}

}  // namespace fips::ctl::top
