// SPDX-License-Identifier: MIT
// fipsctl status (see status-render.h).
#include "ctl/status-render.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "ctl/table.h"
#include "lib/identity/fips-address.h"
#include "lib/identity/node-addr.h"
#include "router/control/json/node-json.h"
#include "router/control/json/snapshot-text.h"

namespace fips::ctl {

namespace {

using router::control::json::hex;
using router::control::json::ipv6Text;
using router::control::json::Json;

// The fd00:: address of a 16-byte node_addr; "-" for anything else.
std::string meshAddress(capnp::Data::Reader nodeAddr) {
  if (nodeAddr.size() != identity::NodeAddr::SIZE) return "-";
  std::array<uint8_t, identity::NodeAddr::SIZE> bytes{};
  std::copy(nodeAddr.begin(), nodeAddr.end(), bytes.begin());
  return identity::FipsAddress::fromNodeAddr(identity::NodeAddr(bytes)).toString();
}

std::string treeLine(schema::TreeStatus::Reader t) {
  if (t.getIsRoot()) return fmt::format("this node is the root (depth {})", t.getDepth());
  const std::string root =
      t.getRootNpub().size() != 0 ? std::string(t.getRootNpub()) : hex(t.getRoot());
  const std::string parent = t.getParentDisplayName().size() != 0
                                 ? std::string(t.getParentDisplayName())
                                 : hex(t.getParent());
  return fmt::format("root {}, depth {}, parent {}", root, t.getDepth(), parent);
}

std::string rtt(schema::LinkMmp::Reader mmp) {
  return mmp.getHasSrtt() ? fmt::format("{:.1f}ms", mmp.getSrttMs()) : "-";
}

std::string peersPart(capnp::List<schema::PeerStatus>::Reader peers, uint64_t nowUnixMs) {
  if (peers.size() == 0) return "peers: none\n";
  std::vector<std::vector<std::string>> rows = {
      {"NAME", "ADDRESS", "TRANSPORT", "REMOTE", "RTT", "UP"}};
  for (auto p : peers) {
    rows.push_back({p.getDisplayName(), ipv6Text(p.getIpv6()), p.getTransportName(),
                    p.getTransportAddr(), rtt(p.getMmp()),
                    formatDuration(secondsSince(p.getAuthenticatedAtMs(), nowUnixMs))});
  }
  return fmt::format("peers: {}\n", peers.size()) + formatTable(rows);
}

std::string sessionsPart(schema::SessionsStatus::Reader s, uint64_t nowUnixMs) {
  if (s.getCount() == 0) return "sessions: none\n";
  std::vector<std::vector<std::string>> rows = {{"NAME", "ADDRESS", "STATE", "RTT", "IDLE"}};
  for (auto e : s.getSessions()) {
    rows.push_back({e.getDisplayName(), meshAddress(e.getRemoteAddr()), e.getState(),
                    e.hasMmp() ? rtt(e.getMmp()) : "-",
                    formatDuration(secondsSince(e.getLastActivityMs(), nowUnixMs))});
  }
  std::string out = fmt::format("sessions: {}\n", s.getCount()) + formatTable(rows);
  if (s.getCount() > s.getSessions().size()) {
    out += fmt::format("... and {} more\n", s.getCount() - s.getSessions().size());
  }
  return out;
}

}  // namespace

std::string statusScreen(schema::NodeStatus::Reader s,
                         capnp::List<schema::PeerStatus>::Reader peers,
                         schema::TreeStatus::Reader tree, schema::SessionsStatus::Reader sessions,
                         uint64_t nowUnixMs) {
  const std::string tun = s.getTunName().size() == 0 ? std::string(s.getTunState())
                                                     : fmt::format("{} ({})", s.getTunName().cStr(),
                                                                   s.getTunState().cStr());
  std::string out = formatTable({
      {"npub", s.getNpub()},
      {"address", ipv6Text(s.getIpv6())},
      {"tun", tun},
      {"tree", treeLine(tree)},
      {"uptime", fmt::format("{} (fips {}, pid {})", formatDuration(s.getUptimeSecs()),
                             s.getVersion().cStr(), s.getPid())},
  });
  return out + "\n" + peersPart(peers, nowUnixMs) + "\n" + sessionsPart(sessions, nowUnixMs);
}

std::string statusScreenJson(schema::NodeStatus::Reader status,
                             capnp::List<schema::PeerStatus>::Reader peers,
                             schema::TreeStatus::Reader tree,
                             schema::SessionsStatus::Reader sessions) {
  Json list = Json::array();
  for (auto e : sessions.getSessions()) {
    list.push_back(Json{{"display_name", e.getDisplayName()},
                        {"npub", e.getNpub()},
                        {"ipv6_addr", meshAddress(e.getRemoteAddr())},
                        {"state", e.getState()}});
  }
  Json doc{
      {"node", router::control::json::statusJson(status)},
      {"tree", Json{{"root", hex(tree.getRoot())},
                    {"root_npub", tree.getRootNpub()},
                    {"is_root", tree.getIsRoot()},
                    {"depth", tree.getDepth()}}},
      {"peers", router::control::json::peersJson(peers)["peers"]},
      {"sessions", Json{{"count", sessions.getCount()}, {"sessions", std::move(list)}}},
  };
  return doc.dump(2) + "\n";
}

}  // namespace fips::ctl
