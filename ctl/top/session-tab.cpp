// SPDX-License-Identifier: MIT
// fipstop's Sessions tab: the end-to-end FSP sessions (the reference's
// sessions view from show_sessions, without the MMP columns: this build
// keeps no session MMP). See tab-views.h.
#include <fmt/format.h>

#include "ctl/table.h"
#include "ctl/top/tab-views.h"
#include "router/control/json/snapshot-text.h"

namespace fips::ctl::top {

using router::control::json::hex;

TabView sessionsTab(const TopData& data) {
  TabView view;
  const auto& a = *data.answers;
  if (!a.hasSessions) return unavailableTab("Sessions (show sessions)");
  auto sessions = a.snapshot.asReader().getSessions();
  view.lines.push_back({fmt::format(" Sessions ({})", sessions.getCount()), Tone::Title});
  std::vector<TableRow> rows{{{"Name", "Remote Addr", "State", "Role", "Path MTU", "Pkts Tx",
                               "Pkts Rx", "Tx", "Rx", "Last Activity"}}};
  for (auto s : sessions.getSessions()) {
    rows.push_back({{std::string(s.getDisplayName()), shortId(hex(s.getRemoteAddr())),
                     std::string(s.getState()), s.getIsInitiator() ? "initiator" : "responder",
                     s.getPathMtu() == 0 ? std::string("-") : std::to_string(s.getPathMtu()),
                     std::to_string(s.getPacketsSent()), std::to_string(s.getPacketsRecv()),
                     formatBytes(s.getBytesSent()), formatBytes(s.getBytesRecv()),
                     formatDuration(secondsSince(s.getLastActivityMs(), data.nowUnixMs)) + " ago"},
                    false});
  }
  appendTable(view, rows, -1);
  view.selectableRows = 0;
  if (sessions.getSessions().size() == 0) view.lines.push_back({"  no sessions", Tone::Dim});
  return view;
}

}  // namespace fips::ctl::top
