// SPDX-License-Identifier: MIT
// fipstop's Performance tab (the reference's show_mmp view): a Link MMP
// pane, one row per peer link from show peers' mmp block, and a Session
// MMP pane, one row per FSP session from show sessions' mmp block (SQI is
// the session's LQI formula). Each pane has its own sort (s
// cycles the column, S flips the direction, f moves the focus between the
// panes). See tab-views.h.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "ctl/top/sparkline.h"
#include "ctl/top/tab-views.h"
#include "router/control/json/mmp-json.h"

namespace fips::ctl::top {

namespace {

constexpr double ABSENT = std::numeric_limits<double>::infinity();

// "  sort: name▲ srtt loss ..." with the active column marked.
template <size_t N>
std::string sortHeader(const std::array<const char*, N>& labels, SortState sort) {
  std::string text = "  sort:";
  for (size_t i = 0; i < N; ++i) {
    text += fmt::format(" {}", labels[i]);
    if (i == sort.column % N) text += sort.descending ? "\u25bc" : "\u25b2";
  }
  return text;
}

double smoothedLoss(schema::LinkMmp::Reader m) {
  return m.getHasSmoothedLoss() ? m.getSmoothedLoss() : m.getLossRate();
}

double smoothedEtx(schema::LinkMmp::Reader m) {
  return m.getHasSmoothedEtx() ? m.getSmoothedEtx() : m.getEtx();
}

// The Link MMP sort key of column `column` (1..5); an absent value is +inf
// so it sorts last ascending.
double linkKey(schema::LinkMmp::Reader m, size_t column) {
  switch (column) {
    case 1:
      return m.getHasSrtt() ? m.getSrttMs() : ABSENT;
    case 2:
      return smoothedLoss(m);
    case 3:
      return smoothedEtx(m);
    case 4:
      return router::control::json::hasLqi(m) ? router::control::json::lqi(m) : ABSENT;
    default:
      return m.getGoodputBps();
  }
}

// The Session MMP sort key of column `column` (1..4), as linkKey; a session
// without an mmp block (not established) is +inf.
double sessionKey(schema::SessionStatus::Reader s, size_t column) {
  if (!s.hasMmp()) return ABSENT;
  return column == 4 && !router::control::json::hasLqi(s.getMmp()) ? ABSENT
                                                                   : linkKey(s.getMmp(), column);
}

// A trend as an arrow after its value: ↑ rising, ↓ falling, else nothing.
std::string arrow(capnp::Text::Reader trend) {
  if (trend == "rising") return "\u2191";
  if (trend == "falling") return "\u2193";
  return "";
}

// The SRTT (with its trend), smoothed loss (with its trend), smoothed ETX
// and LQI cells of a link's or a session's MMP block; "-" for SRTT and
// LQI before they are measured. SQI is the session's LQI formula.
std::array<std::string, 4> mmpCells(schema::LinkMmp::Reader m) {
  const bool lqi = router::control::json::hasLqi(m);
  return {m.getHasSrtt() ? fmt::format("{:.1f}ms{}", m.getSrttMs(), arrow(m.getRttTrend())) : "-",
          fmt::format("{:.4f}{}", smoothedLoss(m), arrow(m.getLossTrend())),
          fmt::format("{:.2f}", smoothedEtx(m)),
          lqi ? fmt::format("{:.2f}", router::control::json::lqi(m)) : "-"};
}

// `order` sorted by `less` as `sort` says (stable, so equal keys keep the
// daemon's order).
template <typename Less>
void sortRows(std::vector<unsigned>& order, SortState sort, Less less) {
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    return sort.descending ? less(b, a) : less(a, b);
  });
}

void linkPane(TabView& view, const ViewState& state, capnp::List<schema::PeerStatus>::Reader peers,
              size_t width) {
  view.lines.push_back({fmt::format(" Link MMP ({} peers)", peers.size()), Tone::Title});
  if (peers.size() == 0) {
    view.lines.push_back({"  No peers", Tone::Dim});
    return;
  }
  const SortState sort{state.linkSort.column % LINK_SORT_LABELS.size(), state.linkSort.descending};
  view.lines.push_back({sortHeader(LINK_SORT_LABELS, sort), Tone::Dim});
  std::vector<unsigned> order(peers.size());
  for (unsigned i = 0; i < order.size(); ++i) order[i] = i;
  sortRows(order, sort, [&](unsigned a, unsigned b) {
    if (sort.column == 0) return peers[a].getDisplayName() < peers[b].getDisplayName();
    return linkKey(peers[a].getMmp(), sort.column) < linkKey(peers[b].getMmp(), sort.column);
  });
  std::vector<TableRow> rows{
      {{"Peer", "Mode", "SRTT", "Loss", "ETX", "LQI", "Goodput", "Jitter", "Cost"}}};
  for (unsigned i : order) {
    auto p = peers[i];
    auto m = p.getMmp();
    const auto [srtt, loss, etx, lqi] = mmpCells(m);
    rows.push_back(
        {{std::string(p.getDisplayName()), std::string(m.getMode()), srtt, loss, etx, lqi,
          formatThroughput(m.getGoodputBps()) + arrow(m.getGoodputTrend()),
          fmt::format("{}us", m.getJitterUs()), fmt::format("{:.2f}", m.getLinkCost())}});
  }
  const int before = view.selectableRows;
  // Narrower screens: Mode goes first, then Jitter and Cost.
  appendTable(view, std::move(rows), -1, {{0, 16}, {2}, {}, {}, {}, {}, {}, {1}, {1}}, width);
  view.selectableRows = before;
}

void sessionPane(TabView& view, const ViewState& state, const Answers& a, size_t width) {
  if (!a.hasSessions) {
    view.lines.push_back({" Session MMP", Tone::Title});
    view.lines.push_back({"  not available from this daemon yet", Tone::Dim});
    return;
  }
  auto sessions = a.snapshot.asReader().getSessions().getSessions();
  view.lines.push_back({fmt::format(" Session MMP ({} sessions)", sessions.size()), Tone::Title});
  if (sessions.size() == 0) {
    view.lines.push_back({"  No sessions", Tone::Dim});
    return;
  }
  const SortState sort{state.sessionSort.column % SESSION_SORT_LABELS.size(),
                       state.sessionSort.descending};
  view.lines.push_back({sortHeader(SESSION_SORT_LABELS, sort), Tone::Dim});
  std::vector<unsigned> order(sessions.size());
  for (unsigned i = 0; i < order.size(); ++i) order[i] = i;
  // The srtt, loss, etx and sqi columns share the Link MMP pane's keys
  // (columns 1-4); an unmeasured session sorts last ascending.
  sortRows(order, sort, [&](unsigned x, unsigned y) {
    if (sort.column == 0) return sessions[x].getDisplayName() < sessions[y].getDisplayName();
    if (sort.column == 5) return sessions[x].getPathMtu() < sessions[y].getPathMtu();
    return sessionKey(sessions[x], sort.column) < sessionKey(sessions[y], sort.column);
  });
  std::vector<TableRow> rows{{{"Session", "SRTT", "Loss", "ETX", "SQI", "MTU"}}};
  for (unsigned i : order) {
    auto s = sessions[i];
    const auto [srtt, loss, etx, sqi] =
        s.hasMmp() ? mmpCells(s.getMmp()) : std::array<std::string, 4>{"-", "-", "-", "-"};
    const uint16_t mtu = s.getPathMtu();
    rows.push_back({{std::string(s.getDisplayName()), srtt, loss, etx, sqi,
                     mtu == 0 ? std::string("-") : std::to_string(mtu)}});
  }
  const int before = view.selectableRows;
  appendTable(view, std::move(rows), -1, {{0, 16}}, width);
  view.selectableRows = before;
}

}  // namespace

TabView performanceTab(const ViewState& state, const TopData& data, size_t width) {
  TabView view;
  const auto& a = *data.answers;
  if (!a.hasPeers) return unavailableTab("Link MMP (show mmp)");
  linkPane(view, state, a.snapshot.asReader().getPeers(), width);
  view.lines.push_back({""});
  sessionPane(view, state, a, width);
  return view;
}

}  // namespace fips::ctl::top
