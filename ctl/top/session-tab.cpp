// SPDX-License-Identifier: MIT
// fipstop's Sessions tab: the end-to-end FSP sessions as a table with a
// selectable row and its detail view (the reference's sessions view from
// show_sessions, without the MMP columns: this build keeps no session
// MMP). See tab-views.h.
#include <fmt/format.h>

#include "ctl/table.h"
#include "ctl/top/tab-views.h"
#include "router/control/json/snapshot-text.h"

namespace fips::ctl::top {

namespace {

using router::control::json::hex;
using router::control::json::ipv6Text;

// "  label         value": a 14-column label (the longest is 13) so that a
// full npub (63 characters) ends in column 79 and shows whole at 80 columns.
void detailLine(TabView& view, const char* label, const std::string& value) {
  view.lines.push_back({fmt::format("  {:<14}{}", label, value)});
}

std::string pathMtu(uint16_t mtu) {
  return mtu == 0 ? std::string("-") : std::to_string(mtu);
}

void sessionDetail(TabView& view, schema::SessionStatus::Reader s, uint64_t nowMs) {
  view.lines.push_back(
      {fmt::format(" Session Detail: {}", s.getDisplayName().cStr()), Tone::Title});
  detailLine(view, "remote", hex(s.getRemoteAddr()));
  detailLine(view, "npub", s.getNpub().size() > 0 ? std::string(s.getNpub()) : "-");
  detailLine(view, "state", s.getState());
  detailLine(view, "role", s.getIsInitiator() ? "initiator" : "responder");
  detailLine(view, "age", formatDuration(secondsSince(s.getCreatedAtMs(), nowMs)));
  detailLine(view, "last activity",
             formatDuration(secondsSince(s.getLastActivityMs(), nowMs)) + " ago");
  detailLine(view, "path MTU", pathMtu(s.getPathMtu()));
  detailLine(view, "packets tx/rx", fmt::format("{} / {}", s.getPacketsSent(), s.getPacketsRecv()));
  detailLine(view, "bytes tx/rx",
             formatBytes(s.getBytesSent()) + " / " + formatBytes(s.getBytesRecv()));
  if (s.getState() == "established") {
    detailLine(view, "key epoch",
               fmt::format("{}{}", s.getRekeys(), s.getRekeyInProgress() ? " (rekeying)" : ""));
    detailLine(view, "keys age", formatDuration(secondsSince(s.getSessionStartMs(), nowMs)));
    detailLine(view, "draining", s.getIsDraining() ? "yes" : "no");
  } else {
    detailLine(view, "resends", std::to_string(s.getResendCount()));
  }
  view.lines.push_back({"  Esc: back to the table", Tone::Dim});
}

}  // namespace

TabView sessionsTab(const ViewState& state, const TopData& data, size_t width) {
  TabView view;
  const auto& a = *data.answers;
  if (!a.hasSessions) return unavailableTab("Sessions (show sessions)");
  auto sessions = a.snapshot.asReader().getSessions();
  auto list = sessions.getSessions();
  if (state.detail && state.selected >= 0 && state.selected < int(list.size())) {
    sessionDetail(view, list[static_cast<unsigned>(state.selected)], data.nowUnixMs);
    view.selectableRows = static_cast<int>(list.size());
    return view;
  }
  view.lines.push_back({fmt::format(" Sessions ({})", sessions.getCount()), Tone::Title});
  std::vector<TableRow> rows{{{"Name", "Remote Addr", "State", "Role", "Path MTU", "Pkts Tx",
                               "Pkts Rx", "Tx", "Rx", "Last Activity"}}};
  for (auto s : list) {
    rows.push_back(
        {{std::string(s.getDisplayName()), shortId(hex(s.getRemoteAddr())),
          std::string(s.getState()), s.getIsInitiator() ? "initiator" : "responder",
          pathMtu(s.getPathMtu()), std::to_string(s.getPacketsSent()),
          std::to_string(s.getPacketsRecv()), formatBytes(s.getBytesSent()),
          formatBytes(s.getBytesRecv()),
          formatDuration(secondsSince(s.getLastActivityMs(), data.nowUnixMs)) + " ago"}});
  }
  // Narrower screens (the reference keeps neither): the packet counts go
  // first, then the byte counts, then Role unless narrowing the remote
  // address is enough.
  appendTable(view, std::move(rows), state.selected,
              {{0, 16}, {0, 0, 9, elideEnd, 1}, {}, {1}, {}, {3}, {3}, {2}, {2}, {}}, width);
  if (list.size() == 0) view.lines.push_back({"  no sessions", Tone::Dim});
  return view;
}

}  // namespace fips::ctl::top
