// SPDX-License-Identifier: MIT
// show status|peers|links|transports tables (see show-render.h).
#include "ctl/show-render.h"

#include <fmt/format.h>

#include "ctl/table.h"
#include "router/control/json/snapshot-text.h"

namespace fips::ctl {

namespace {

using router::control::json::hex;
using router::control::json::ipv6Text;

std::string orDash(capnp::Text::Reader text) {
  return text.size() == 0 ? std::string("-") : std::string(text);
}

}  // namespace

std::string statusTable(schema::NodeStatus::Reader s) {
  std::string tun = s.getTunName().size() == 0
                        ? std::string(s.getTunState())
                        : fmt::format("{} ({})", s.getTunName().cStr(), s.getTunState().cStr());
  return formatTable({
      {"npub", s.getNpub()},
      {"node_addr", hex(s.getNodeAddr())},
      {"ipv6_addr", ipv6Text(s.getIpv6())},
      {"version", s.getVersion()},
      {"state", s.getState()},
      {"uptime", formatDuration(s.getUptimeSecs())},
      {"peers", std::to_string(s.getPeerCount())},
      {"links", std::to_string(s.getLinkCount())},
      {"handshakes", std::to_string(s.getConnectionCount())},
      {"transports", std::to_string(s.getTransportCount())},
      {"leaf_only", s.getIsLeafOnly() ? "yes" : "no"},
      {"tun", tun},
      {"control", s.getControlSocket()},
      {"pid", std::to_string(s.getPid())},
  });
}

std::string peersTable(capnp::List<schema::PeerStatus>::Reader peers, uint64_t nowUnixMs) {
  if (peers.size() == 0) return "no peers\n";
  std::vector<std::vector<std::string>> rows = {
      {"NAME", "NPUB", "ADDRESS", "TRANSPORT", "REMOTE", "DIR", "UP", "IDLE"}};
  for (auto p : peers) {
    rows.push_back({p.getDisplayName(), p.getNpub(), ipv6Text(p.getIpv6()),
                    orDash(p.getTransportName()), p.getTransportAddr(),
                    p.getOutbound() ? "out" : "in",
                    formatDuration(secondsSince(p.getAuthenticatedAtMs(), nowUnixMs)),
                    formatDuration(secondsSince(p.getLastSeenMs(), nowUnixMs))});
  }
  return formatTable(rows);
}

std::string linksTable(capnp::List<schema::LinkStatus>::Reader links, uint64_t nowUnixMs) {
  if (links.size() == 0) return "no links\n";
  std::vector<std::vector<std::string>> rows = {
      {"TRANSPORT", "REMOTE", "DIR", "STATE", "AGE", "IDLE", "NAME", "PEER"}};
  for (auto l : links) {
    rows.push_back({std::to_string(l.getTransportId()), l.getRemoteAddr(),
                    l.getOutbound() ? "out" : "in", l.getState(),
                    formatDuration(secondsSince(l.getCreatedAtMs(), nowUnixMs)),
                    formatDuration(secondsSince(l.getLastRecvMs(), nowUnixMs)),
                    orDash(l.getDisplayName()), l.getNpub()});
  }
  return formatTable(rows);
}

std::string transportsTable(capnp::List<schema::TransportStatus>::Reader transports) {
  if (transports.size() == 0) return "no transports\n";
  std::vector<std::vector<std::string>> rows = {{"ID", "NAME", "STATE", "LOCAL", "RX", "TX",
                                                 "RX BYTES", "TX BYTES", "SEND ERRORS",
                                                 "KERNEL DROPS"}};
  for (auto t : transports) {
    rows.push_back({std::to_string(t.getTransportId()), t.getName(), t.getState(),
                    t.getLocalAddrs().size() > 0 ? std::string(t.getLocalAddrs()[0]) : "-",
                    std::to_string(t.getPacketsRecv()), std::to_string(t.getPacketsSent()),
                    std::to_string(t.getBytesRecv()), std::to_string(t.getBytesSent()),
                    std::to_string(t.getSendErrors()), std::to_string(t.getKernelDrops())});
  }
  std::string out = formatTable(rows);
  // A worker's own counters (tcp: connections, framing errors), one line each.
  for (auto t : transports) {
    for (auto c : t.getCounters()) {
      out += fmt::format("{} {}: {}\n", t.getName().cStr(), c.getName().cStr(), c.getValue());
    }
  }
  return out;
}

}  // namespace fips::ctl
