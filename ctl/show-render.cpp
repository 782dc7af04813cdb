// SPDX-License-Identifier: MIT
// show status|peers|links|transports output (see show-render.h).
#include "ctl/show-render.h"

#include <fmt/format.h>

#include "ctl/snapshot-text.h"
#include "ctl/table.h"

namespace fips::ctl {

namespace {

const char* direction(bool outbound) {
  return outbound ? "outbound" : "inbound";
}

std::string orDash(capnp::Text::Reader text) {
  return text.size() == 0 ? std::string("-") : std::string(text);
}

// The instance of "udp/<instance>", "" for an unnamed transport.
std::string instanceOf(capnp::Text::Reader name) {
  std::string text = name;
  auto slash = text.find('/');
  return slash == std::string::npos ? "" : text.substr(slash + 1);
}

}  // namespace

Json statusJson(schema::NodeStatus::Reader s) {
  Json perType = Json::object();
  for (auto entry : s.getTransportPeerCounts())
    perType[std::string(entry.getType())] = entry.getCount();
  return Json{
      {"version", s.getVersion()},
      {"npub", s.getNpub()},
      {"node_addr", hex(s.getNodeAddr())},
      {"ipv6_addr", ipv6Text(s.getIpv6())},
      {"state", s.getState()},
      {"is_leaf_only", s.getIsLeafOnly()},
      {"peer_count", s.getPeerCount()},
      {"link_count", s.getLinkCount()},
      {"transport_count", s.getTransportCount()},
      {"connection_count", s.getConnectionCount()},
      {"transport_peer_counts", perType},
      {"tun_state", s.getTunState()},
      {"tun_name", orDash(s.getTunName())},
      {"control_socket", s.getControlSocket()},
      {"pid", s.getPid()},
      {"exe_path", s.getExePath()},
      {"uptime_secs", s.getUptimeSecs()},
  };
}

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

Json peersJson(capnp::List<schema::PeerStatus>::Reader peers) {
  Json list = Json::array();
  for (auto p : peers) {
    Json peer{
        {"node_addr", hex(p.getNodeAddr())},
        {"npub", p.getNpub()},
        {"display_name", p.getDisplayName()},
        {"ipv6_addr", ipv6Text(p.getIpv6())},
        {"connectivity", "connected"},
        {"authenticated_at_ms", p.getAuthenticatedAtMs()},
        {"last_seen_ms", p.getLastSeenMs()},
        {"transport_addr", p.getTransportAddr()},
        {"direction", direction(p.getOutbound())},
        {"transport_type", p.getTransportType()},
        {"transport_name", p.getTransportName()},
        {"our_session_index", fmt::format("{:08x}", p.getOurIndex())},
        {"their_session_index", fmt::format("{:08x}", p.getTheirIndex())},
        {"rekeys", p.getRekeys()},
    };
    if (p.getRekeyInProgress()) peer["rekey_in_progress"] = true;
    list.push_back(std::move(peer));
  }
  return Json{{"peers", list}};
}

std::string peersTable(capnp::List<schema::PeerStatus>::Reader peers, uint64_t nowUnixMs) {
  if (peers.size() == 0) return "no peers\n";
  std::vector<std::vector<std::string>> rows = {
      {"NAME", "NPUB", "TRANSPORT", "ADDRESS", "DIR", "UP", "IDLE"}};
  for (auto p : peers) {
    rows.push_back({p.getDisplayName(), p.getNpub(), orDash(p.getTransportName()),
                    p.getTransportAddr(), p.getOutbound() ? "out" : "in",
                    formatDuration(secondsSince(p.getAuthenticatedAtMs(), nowUnixMs)),
                    formatDuration(secondsSince(p.getLastSeenMs(), nowUnixMs))});
  }
  return formatTable(rows);
}

Json linksJson(capnp::List<schema::LinkStatus>::Reader links) {
  Json list = Json::array();
  for (auto l : links) {
    list.push_back(Json{
        {"transport_id", l.getTransportId()},
        {"remote_addr", l.getRemoteAddr()},
        {"direction", direction(l.getOutbound())},
        {"state", l.getState()},
        {"created_at_ms", l.getCreatedAtMs()},
        {"npub", l.getNpub()},
        {"stats", Json{{"last_recv_ms", l.getLastRecvMs()}}},
    });
  }
  return Json{{"links", list}};
}

std::string linksTable(capnp::List<schema::LinkStatus>::Reader links, uint64_t nowUnixMs) {
  if (links.size() == 0) return "no links\n";
  std::vector<std::vector<std::string>> rows = {
      {"TRANSPORT", "REMOTE", "DIR", "STATE", "AGE", "IDLE", "PEER"}};
  for (auto l : links) {
    rows.push_back({std::to_string(l.getTransportId()), l.getRemoteAddr(),
                    l.getOutbound() ? "out" : "in", l.getState(),
                    formatDuration(secondsSince(l.getCreatedAtMs(), nowUnixMs)),
                    formatDuration(secondsSince(l.getLastRecvMs(), nowUnixMs)), l.getNpub()});
  }
  return formatTable(rows);
}

Json transportsJson(capnp::List<schema::TransportStatus>::Reader transports) {
  Json list = Json::array();
  for (auto t : transports) {
    Json entry{
        {"transport_id", t.getTransportId()}, {"type", t.getType()}, {"state", t.getState()}};
    const std::string instance = instanceOf(t.getName());
    if (!instance.empty()) entry["name"] = instance;
    if (t.getLocalAddrs().size() > 0) entry["local_addr"] = t.getLocalAddrs()[0];
    entry["stats"] = Json{
        {"packets_sent", t.getPacketsSent()}, {"bytes_sent", t.getBytesSent()},
        {"packets_recv", t.getPacketsRecv()}, {"bytes_recv", t.getBytesRecv()},
        {"send_errors", t.getSendErrors()},   {"kernel_drops", t.getKernelDrops()},
    };
    list.push_back(std::move(entry));
  }
  return Json{{"transports", list}};
}

std::string transportsTable(capnp::List<schema::TransportStatus>::Reader transports) {
  if (transports.size() == 0) return "no transports\n";
  std::vector<std::vector<std::string>> rows = {
      {"ID", "NAME", "STATE", "LOCAL", "RX", "TX", "RX BYTES", "TX BYTES", "DROPS"}};
  for (auto t : transports) {
    rows.push_back({std::to_string(t.getTransportId()), t.getName(), t.getState(),
                    t.getLocalAddrs().size() > 0 ? std::string(t.getLocalAddrs()[0]) : "-",
                    std::to_string(t.getPacketsRecv()), std::to_string(t.getPacketsSent()),
                    std::to_string(t.getBytesRecv()), std::to_string(t.getBytesSent()),
                    std::to_string(t.getKernelDrops())});
  }
  return formatTable(rows);
}

}  // namespace fips::ctl
