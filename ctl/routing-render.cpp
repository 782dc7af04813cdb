// SPDX-License-Identifier: MIT
// show sessions|connections|routing|identity-cache and acl show output (see
// routing-render.h).
#include "ctl/routing-render.h"

#include <fmt/format.h>

#include "ctl/table.h"
#include "router/control/json/snapshot-text.h"

namespace fips::ctl {

using router::control::json::hex;
using router::control::json::ipv6Text;

namespace {

uint64_t counter(capnp::List<schema::Counter>::Reader counters, const char* fam, const char* name) {
  for (auto c : counters) {
    if (c.getFamily() == fam && c.getName() == name) return c.getValue();
  }
  return 0;
}

std::string shown(const std::string& text) {
  return text.empty() ? "-" : text;
}

// "... and N more" when the snapshot carried fewer entries than exist.
std::string more(size_t listed, uint64_t count) {
  return count > listed ? fmt::format("... and {} more\n", count - listed) : "";
}

}  // namespace

std::string sessionsTable(schema::SessionsStatus::Reader s, uint64_t nowUnixMs) {
  if (s.getCount() == 0) return "no sessions\n";
  std::vector<std::vector<std::string>> rows = {{"NAME", "NODE_ADDR", "STATE", "ROLE", "AGE",
                                                 "IDLE", "MTU", "EPOCH", "SRTT", "LOSS", "ETX",
                                                 "PKTS TX/RX", "BYTES TX/RX"}};
  for (auto e : s.getSessions()) {
    const bool measured = e.hasMmp();  // established: session-layer MMP
    const auto mmp = e.getMmp();
    rows.push_back({
        e.getDisplayName(),
        hex(e.getRemoteAddr()).substr(0, 16),
        e.getState(),
        e.getIsInitiator() ? "initiator" : "responder",
        formatDuration(secondsSince(e.getCreatedAtMs(), nowUnixMs)),
        formatDuration(secondsSince(e.getLastActivityMs(), nowUnixMs)),
        e.getPathMtu() == 0 ? "-" : std::to_string(e.getPathMtu()),
        std::to_string(e.getRekeys()) + (e.getRekeyInProgress() ? "+" : ""),
        measured && mmp.getHasSrtt() ? fmt::format("{:.1f}ms", mmp.getSrttMs()) : "-",
        measured ? fmt::format("{:.1f}%", mmp.getLossRate() * 100.0) : "-",
        measured ? fmt::format("{:.2f}", mmp.getEtx()) : "-",
        fmt::format("{}/{}", e.getPacketsSent(), e.getPacketsRecv()),
        fmt::format("{}/{}", e.getBytesSent(), e.getBytesRecv()),
    });
  }
  return formatTable(rows) + more(s.getSessions().size(), s.getCount());
}

std::string connectionsTable(schema::ConnectionsStatus::Reader c) {
  if (c.getCount() == 0) return "no pending connections\n";
  std::vector<std::vector<std::string>> rows = {
      {"LINK", "DIR", "STATE", "ADDRESS", "IDLE", "RESENDS", "EXPECTED PEER"}};
  for (auto e : c.getConnections()) {
    rows.push_back({std::to_string(e.getLinkId()), e.getDirection(), e.getHandshakeState(),
                    shown(e.getRemoteAddr()), formatDuration(e.getIdleMs() / 1000),
                    std::to_string(e.getResendCount()), shown(e.getExpectedPeer())});
  }
  return formatTable(rows) + more(c.getConnections().size(), c.getCount());
}

std::string routingTable(schema::RoutingStatus::Reader r, uint64_t nowUnixMs) {
  const auto c = r.getCounters();
  std::string out = formatTable({
      {"coord_cache", std::to_string(r.getCoordCacheEntries())},
      {"identity_cache", std::to_string(r.getIdentityCacheEntries())},
      {"pending_lookups", std::to_string(r.getPendingLookups().size())},
      {"pending_tun", fmt::format("{} packets for {} destinations", r.getPendingTunPackets(),
                                  r.getPendingTunDestinations())},
      {"recent_requests", std::to_string(r.getRecentRequests())},
      {"forwarded",
       fmt::format("{} packets, {} bytes", counter(c, "forwarding", "forwarded_packets"),
                   counter(c, "forwarding", "forwarded_bytes"))},
      {"delivered",
       fmt::format("{} packets, {} bytes", counter(c, "forwarding", "delivered_packets"),
                   counter(c, "forwarding", "delivered_bytes"))},
      {"originated",
       fmt::format("{} packets, {} bytes", counter(c, "forwarding", "originated_packets"),
                   counter(c, "forwarding", "originated_bytes"))},
      {"dropped (no route)", std::to_string(counter(c, "forwarding", "drop_no_route_packets"))},
      {"lookups", fmt::format("{} initiated, {} accepted, {} timed out",
                              counter(c, "discovery", "req_initiated"),
                              counter(c, "discovery", "resp_accepted"),
                              counter(c, "discovery", "resp_timed_out"))},
  });
  if (r.getPendingLookups().size() != 0) {
    std::vector<std::vector<std::string>> rows = {{"LOOKUP", "TARGET", "ATTEMPT", "AGE"}};
    for (auto l : r.getPendingLookups()) {
      rows.push_back({l.getDisplayName(), hex(l.getTarget()), std::to_string(l.getAttempt()),
                      formatDuration(l.getAgeMs() / 1000)});
    }
    out += "\n" + formatTable(rows);
  }
  if (r.getRetries().size() != 0) {
    std::vector<std::vector<std::string>> rows = {{"RETRY", "NODE_ADDR", "COUNT", "NEXT", "AUTO"}};
    for (auto e : r.getRetries()) {
      const uint64_t after = e.getRetryAfterMs();
      rows.push_back(
          {e.getDisplayName(), hex(e.getNodeAddr()), std::to_string(e.getRetryCount()),
           after == 0 ? "-"
                      : "in " + formatDuration(after > nowUnixMs ? (after - nowUnixMs) / 1000 : 0),
           e.getAutoReconnect() ? "yes" : "no"});
    }
    out += "\n" + formatTable(rows);
  }
  return out;
}

std::string identityCacheTable(schema::IdentityCacheStatus::Reader c) {
  std::string out =
      formatTable({{"entries", fmt::format("{} / {}", c.getCount(), c.getMaxEntries())}});
  if (c.getCount() == 0) return out + "\nno cached identities\n";
  std::vector<std::vector<std::string>> rows = {{"NAME", "IPV6", "NPUB"}};
  for (auto e : c.getEntries()) {
    rows.push_back({e.getDisplayName(), ipv6Text(e.getIpv6()), e.getNpub()});
  }
  return out + "\n" + formatTable(rows) + more(c.getEntries().size(), c.getCount());
}

std::string aclTable(schema::AclStatus::Reader a,
                     const std::function<AclFileState(const std::string&)>& fileState) {
  const auto fileRow = [&](capnp::Text::Reader path, size_t entries) {
    const std::string name = path.cStr();
    const AclFileState state = fileState(name);
    if (state == AclFileState::MISSING) return name + " (missing)";
    if (!a.getImplemented()) return name + " (not read)";
    return fmt::format("{} ({} entries)", name, entries);
  };
  std::string out = formatTable({
      {"mode", a.getEffectiveMode()},
      {"default", a.getDefaultDecision()},
      {"enforced", a.getEnforcementActive() ? "yes" : "no"},
      {"allow_file", fileRow(a.getAllowFile(), a.getAllowFileEntries().size())},
      {"deny_file", fileRow(a.getDenyFile(), a.getDenyFileEntries().size())},
  });
  if (!a.getImplemented()) {
    out +=
        "\nthis build has no peer ACL: peers.allow and peers.deny are not read, every peer "
        "is allowed\n";
  }
  return out;
}

}  // namespace fips::ctl
