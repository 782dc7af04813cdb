// SPDX-License-Identifier: MIT
// fipstop's Node tab (the reference's dashboard: Runtime, Identity, State,
// and sparklines of the node's history). See tab-views.h.
#include <fmt/format.h>

#include "ctl/table.h"
#include "ctl/top/sparkline.h"
#include "ctl/top/tab-views.h"
#include "router/control/json/snapshot-text.h"

namespace fips::ctl::top {

namespace {

using router::control::json::hex;
using router::control::json::ipv6Text;

std::string orDash(capnp::Text::Reader text) {
  return text.size() == 0 ? std::string("-") : std::string(text);
}

// "udp (1), tcp (0)", "-" when none.
std::string peerCounts(schema::NodeStatus::Reader s) {
  std::string out;
  for (auto entry : s.getTransportPeerCounts()) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} ({})", entry.getType().cStr(), entry.getCount());
  }
  return out.empty() ? "-" : out;
}

// "  peer_count      ▁▂▃▅  3": the label, the newest samples that fit (from
// the first one the daemon has), the newest value.
Line sparkRow(const Series& series, size_t width) {
  const std::string label = fmt::format("  {:<16}", series.metric);
  const auto values = withoutLeadingGaps(series.values);
  const std::string value = formatRate(lastValue(values), series.unit);
  const size_t used = displayWidth(label) + displayWidth(value) + 2;
  const size_t room = width > used ? width - used : 1;
  return {label + sparklineTail(values, room) + "  " + value, Tone::Plot};
}

}  // namespace

TabView nodeTab(const TopData& data, size_t width) {
  TabView view;
  const auto& a = *data.answers;
  auto snap = a.snapshot.asReader();
  auto& lines = view.lines;
  if (!a.hasStatus) {
    lines.push_back({"  Waiting for data...", Tone::Dim});
    return view;
  }
  auto s = snap.getStatus();
  std::string tun = s.getTunName().size() == 0
                        ? std::string(s.getTunState())
                        : fmt::format("{} ({})", s.getTunName().cStr(), s.getTunState().cStr());
  lines.push_back({" Runtime", Tone::Title});
  lines.push_back({fmt::format("  ver: {}  pid: {}  uptime: {}", s.getVersion().cStr(), s.getPid(),
                               formatDuration(s.getUptimeSecs()))});
  // Long paths keep their start and their file name.
  const size_t pathRoom = width > 7 ? width - 7 : 1;
  lines.push_back({"  exe: " + elideMiddle(orDash(s.getExePath()), pathRoom)});
  lines.push_back({"  ctl: " + elideMiddle(orDash(s.getControlSocket()), pathRoom)});
  lines.push_back({" Identity", Tone::Title});
  lines.push_back({fmt::format("  npub:      {}", s.getNpub().cStr())});
  lines.push_back({"  node_addr: " + hex(s.getNodeAddr())});
  lines.push_back({"  ipv6:      " + ipv6Text(s.getIpv6())});
  lines.push_back({" State", Tone::Title});
  lines.push_back({fmt::format("  state: {}  tun: {}  leaf: {}", s.getState().cStr(), tun,
                               s.getIsLeafOnly() ? "true" : "false")});
  lines.push_back(
      {fmt::format("  peers: {}  links: {}  transports: {}  connections: {}", s.getPeerCount(),
                   s.getLinkCount(), s.getTransportCount(), s.getConnectionCount())});
  std::string root = "-";
  if (a.hasTree) {
    auto tree = snap.getTree();
    root = tree.getIsRoot()
               ? std::string("I am the one who roots")
               : fmt::format("{}  depth {}", shortId(hex(tree.getRoot())), tree.getDepth());
  }
  lines.push_back({"  root: " + root});
  lines.push_back({"  transports: " + peerCounts(s)});
  const auto& history = data.history;
  lines.push_back({fmt::format(" History ({})", history.windowLabel().empty()
                                                    ? std::string(SPARKLINE_WINDOW.label)
                                                    : history.windowLabel()),
                   Tone::Title});
  if (!history.unavailableReason().empty()) {
    lines.push_back({"  not available: " + history.unavailableReason(), Tone::Dim});
    return view;
  }
  // The reference's dashboard sparklines; every metric is on Graphs.
  for (const char* metric :
       {"peer_count", "mesh_size", "tree_depth", "bytes_in", "bytes_out", "loss_rate"}) {
    if (const Series* series = history.find(metric)) lines.push_back(sparkRow(*series, width));
  }
  return view;
}

}  // namespace fips::ctl::top
