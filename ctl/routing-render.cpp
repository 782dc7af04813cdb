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

Json textList(capnp::List<capnp::Text>::Reader list) {
  Json out = Json::array();
  for (auto t : list) out.push_back(t.cStr());
  return out;
}

// One JSON object per counter family, names in snapshot order.
Json family(capnp::List<schema::Counter>::Reader counters, const char* name) {
  Json out = Json::object();
  for (auto c : counters) {
    if (c.getFamily() == name) out[std::string(c.getName())] = c.getValue();
  }
  return out;
}

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

Json sessionsJson(schema::SessionsStatus::Reader s) {
  Json sessions = Json::array();
  for (auto e : s.getSessions()) {
    const bool established = e.getState() == "established";
    Json entry{
        {"remote_addr", hex(e.getRemoteAddr())},
        {"display_name", e.getDisplayName()},
        {"state", e.getState()},
        {"is_initiator", e.getIsInitiator()},
        {"last_activity_ms", e.getLastActivityMs()},
        {"npub", e.getNpub().size() == 0 ? Json(nullptr) : Json(e.getNpub().cStr())},
        {"stats",
         {{"packets_sent", e.getPacketsSent()},
          {"packets_recv", e.getPacketsRecv()},
          {"bytes_sent", e.getBytesSent()},
          {"bytes_recv", e.getBytesRecv()}}},
    };
    if (!established) entry["resend_count"] = e.getResendCount();
    if (established) {
      entry["session_start_ms"] = e.getSessionStartMs();
      entry["current_k_bit"] = e.getCurrentKBit();
      entry["coords_warmup_remaining"] = e.getCoordsWarmupRemaining();
      entry["is_draining"] = e.getIsDraining();
    }
    entry["created_at_ms"] = e.getCreatedAtMs();
    entry["path_mtu"] = e.getPathMtu() == 0 ? Json(nullptr) : Json(e.getPathMtu());
    entry["rekey_count"] = e.getRekeys();
    entry["rekey_in_progress"] = e.getRekeyInProgress();
    sessions.push_back(std::move(entry));
  }
  return Json{{"sessions", sessions}, {"count", s.getCount()}};
}

std::string sessionsTable(schema::SessionsStatus::Reader s, uint64_t nowUnixMs) {
  if (s.getCount() == 0) return "no sessions\n";
  std::vector<std::vector<std::string>> rows = {{"NAME", "NODE_ADDR", "STATE", "ROLE", "AGE",
                                                 "IDLE", "MTU", "EPOCH", "PKTS TX/RX",
                                                 "BYTES TX/RX"}};
  for (auto e : s.getSessions()) {
    rows.push_back({
        e.getDisplayName(),
        hex(e.getRemoteAddr()).substr(0, 16),
        e.getState(),
        e.getIsInitiator() ? "initiator" : "responder",
        formatDuration(secondsSince(e.getCreatedAtMs(), nowUnixMs)),
        formatDuration(secondsSince(e.getLastActivityMs(), nowUnixMs)),
        e.getPathMtu() == 0 ? "-" : std::to_string(e.getPathMtu()),
        std::to_string(e.getRekeys()) + (e.getRekeyInProgress() ? "+" : ""),
        fmt::format("{}/{}", e.getPacketsSent(), e.getPacketsRecv()),
        fmt::format("{}/{}", e.getBytesSent(), e.getBytesRecv()),
    });
  }
  return formatTable(rows) + more(s.getSessions().size(), s.getCount());
}

Json connectionsJson(schema::ConnectionsStatus::Reader c) {
  Json connections = Json::array();
  for (auto e : c.getConnections()) {
    Json entry{
        {"link_id", e.getLinkId()},
        {"direction", e.getDirection()},
        {"handshake_state", e.getHandshakeState()},
        {"started_at_ms", e.getStartedAtMs()},
        {"idle_ms", e.getIdleMs()},
        {"resend_count", e.getResendCount()},
    };
    if (e.getExpectedPeer().size() != 0) entry["expected_peer"] = e.getExpectedPeer();
    entry["remote_addr"] = e.getRemoteAddr();
    connections.push_back(std::move(entry));
  }
  return Json{{"connections", connections}};
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

Json routingJson(schema::RoutingStatus::Reader r) {
  Json lookups = Json::array();
  for (auto l : r.getPendingLookups()) {
    lookups.push_back(Json{{"target", hex(l.getTarget())},
                           {"display_name", l.getDisplayName()},
                           {"initiated_ms", l.getInitiatedMs()},
                           {"last_sent_ms", l.getLastSentMs()},
                           {"attempt", l.getAttempt()},
                           {"age_ms", l.getAgeMs()}});
  }
  Json retries = Json::array();
  for (auto e : r.getRetries()) {
    retries.push_back(Json{{"node_addr", hex(e.getNodeAddr())},
                           {"display_name", e.getDisplayName()},
                           {"retry_count", e.getRetryCount()},
                           {"retry_after_ms", e.getRetryAfterMs()},
                           {"auto_reconnect", e.getAutoReconnect()}});
  }
  const auto counters = r.getCounters();
  return Json{
      {"coord_cache_entries", r.getCoordCacheEntries()},
      {"identity_cache_entries", r.getIdentityCacheEntries()},
      {"pending_lookups", lookups},
      {"pending_tun_destinations", r.getPendingTunDestinations()},
      {"pending_tun_packets", r.getPendingTunPackets()},
      {"recent_requests", r.getRecentRequests()},
      {"retries", retries},
      {"forwarding", family(counters, "forwarding")},
      {"discovery", family(counters, "discovery")},
      {"lookup", family(counters, "discovery")},
  };
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

Json identityCacheJson(schema::IdentityCacheStatus::Reader c) {
  Json entries = Json::array();
  for (auto e : c.getEntries()) {
    entries.push_back(Json{{"node_addr", hex(e.getNodeAddr())},
                           {"npub", e.getNpub()},
                           {"display_name", e.getDisplayName()},
                           {"ipv6_addr", ipv6Text(e.getIpv6())}});
  }
  return Json{{"entries", entries}, {"count", c.getCount()}, {"max_entries", c.getMaxEntries()}};
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

Json aclJson(schema::AclStatus::Reader a) {
  return Json{
      {"allow_file", a.getAllowFile()},
      {"deny_file", a.getDenyFile()},
      {"enforcement_active", a.getEnforcementActive()},
      {"effective_mode", a.getEffectiveMode()},
      {"default_decision", a.getDefaultDecision()},
      {"allow_all", a.getAllowAll()},
      {"deny_all", a.getDenyAll()},
      {"allow_file_entries", textList(a.getAllowFileEntries())},
      {"deny_file_entries", textList(a.getDenyFileEntries())},
      {"allow_entries", textList(a.getAllowEntries())},
      {"deny_entries", textList(a.getDenyEntries())},
  };
}

std::string aclTable(schema::AclStatus::Reader a) {
  std::string out = formatTable({
      {"mode", a.getEffectiveMode()},
      {"default", a.getDefaultDecision()},
      {"enforced", a.getEnforcementActive() ? "yes" : "no"},
      {"allow_file",
       fmt::format("{} ({} entries)", a.getAllowFile().cStr(), a.getAllowFileEntries().size())},
      {"deny_file",
       fmt::format("{} ({} entries)", a.getDenyFile().cStr(), a.getDenyFileEntries().size())},
  });
  if (!a.getImplemented()) {
    out +=
        "\nthis build has no peer ACL: peers.allow and peers.deny are not read, every peer "
        "is allowed\n";
  }
  return out;
}

}  // namespace fips::ctl
