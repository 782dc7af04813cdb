// SPDX-License-Identifier: MIT
// show_status|peers|links|transports documents (see node-json.h).
#include "router/control/json/node-json.h"

#include <fmt/format.h>

#include "router/control/json/mmp-json.h"
#include "router/control/json/snapshot-text.h"

namespace fips::router::control::json {

namespace {

const char* direction(bool outbound) {
  return outbound ? "outbound" : "inbound";
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
      {"tun_name", s.getTunName().size() == 0 ? std::string("-") : std::string(s.getTunName())},
      {"control_socket", s.getControlSocket()},
      {"pid", s.getPid()},
      {"exe_path", s.getExePath()},
      {"uptime_secs", s.getUptimeSecs()},
  };
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
        {"stats", trafficJson(p.getStats())},
    };
    if (p.getRekeyInProgress()) peer["rekey_in_progress"] = true;
    peer["mmp"] = peerMmpJson(p.getMmp());
    list.push_back(std::move(peer));
  }
  return Json{{"peers", list}};
}

Json linksJson(capnp::List<schema::LinkStatus>::Reader links) {
  Json list = Json::array();
  for (auto l : links) {
    Json stats = trafficJson(l.getStats());
    stats["last_recv_ms"] = l.getLastRecvMs();
    list.push_back(Json{
        {"transport_id", l.getTransportId()},
        {"remote_addr", l.getRemoteAddr()},
        {"direction", direction(l.getOutbound())},
        {"state", l.getState()},
        {"created_at_ms", l.getCreatedAtMs()},
        {"npub", l.getNpub()},
        {"stats", std::move(stats)},
    });
  }
  return Json{{"links", list}};
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
    // A worker's own counters (tcp: the reference's TcpStats names) win.
    for (auto c : t.getCounters()) entry["stats"][std::string(c.getName())] = c.getValue();
    list.push_back(std::move(entry));
  }
  return Json{{"transports", list}};
}

}  // namespace fips::router::control::json
