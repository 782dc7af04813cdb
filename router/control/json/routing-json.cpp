// SPDX-License-Identifier: MIT
// show_sessions / show_connections / show_routing / show_identity_cache /
// show_acl documents (see routing-json.h).
#include "router/control/json/routing-json.h"

#include "router/control/json/mmp-json.h"
#include "router/control/json/snapshot-text.h"

namespace fips::router::control::json {

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
    if (e.hasMmp()) entry["mmp"] = sessionMmpJson(e.getMmp(), e.getPathMtu());
    sessions.push_back(std::move(entry));
  }
  return Json{{"sessions", sessions}, {"count", s.getCount()}};
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

}  // namespace fips::router::control::json
