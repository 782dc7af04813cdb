// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: reads `node.*` (spec 08 §3.2, 07 §7-8),
// folding the deprecated `node.discovery` block. Runs in the fips supervisor
// and fipsctl on operator-owned input; bad values become messages.
#include "privsep/config/config-parse.h"

namespace fips::privsep::config {

namespace {

constexpr EnumName<NostrPolicy> NOSTR_POLICIES[] = {
    {"disabled", NostrPolicy::DISABLED},
    {"configured_only", NostrPolicy::CONFIGURED_ONLY},
    {"open", NostrPolicy::OPEN},
};

constexpr EnumName<MmpMode> MMP_MODES[] = {
    {"full", MmpMode::FULL},
    {"lightweight", MmpMode::LIGHTWEIGHT},
    {"minimal", MmpMode::MINIMAL},
};

void parseLimits(MapReader& r, LimitsConfig& out) {
  r.read("max_connections", out.maxConnections);
  r.read("max_peers", out.maxPeers);
  r.read("max_links", out.maxLinks);
  r.read("max_pending_inbound", out.maxPendingInbound);
}

void parseRateLimit(MapReader& r, RateLimitConfig& out) {
  r.read("handshake_burst", out.handshakeBurst);
  r.read("handshake_rate", out.handshakeRate);
  r.read("handshake_timeout_secs", out.handshakeTimeoutSecs);
  r.read("handshake_resend_interval_ms", out.handshakeResendIntervalMs);
  r.read("handshake_resend_backoff", out.handshakeResendBackoff);
  r.read("handshake_max_resends", out.handshakeMaxResends);
  r.read("established_handshake_burst", out.establishedHandshakeBurst);
  r.read("established_handshake_rate", out.establishedHandshakeRate);
  r.read("session_setup_burst", out.sessionSetupBurst);
  r.read("session_setup_rate", out.sessionSetupRate);
}

void parseRetry(MapReader& r, RetryConfig& out) {
  r.read("max_retries", out.maxRetries);
  r.read("base_interval_secs", out.baseIntervalSecs);
  r.read("max_backoff_secs", out.maxBackoffSecs);
}

void parseCache(MapReader& r, CacheConfig& out) {
  r.read("coord_size", out.coordSize);
  r.read("coord_ttl_secs", out.coordTtlSecs);
  r.read("identity_size", out.identitySize);
}

// The lookup keys; also the scalar half of the deprecated node.discovery.
void parseLookup(MapReader& r, LookupConfig& out) {
  r.read("ttl", out.ttl);
  r.read("attempt_timeouts_secs", out.attemptTimeoutsSecs);
  r.read("recent_expiry_secs", out.recentExpirySecs);
  r.read("backoff_base_secs", out.backoffBaseSecs);
  r.read("backoff_max_secs", out.backoffMaxSecs);
  r.read("forward_min_interval_secs", out.forwardMinIntervalSecs);
}

void parseNostrTimers(MapReader& r, NostrRendezvousConfig& out) {
  r.read("attempt_timeout_secs", out.attemptTimeoutSecs);
  r.read("replay_window_secs", out.replayWindowSecs);
  r.read("punch_start_delay_ms", out.punchStartDelayMs);
  r.read("punch_interval_ms", out.punchIntervalMs);
  r.read("punch_duration_ms", out.punchDurationMs);
  r.read("advert_ttl_secs", out.advertTtlSecs);
  r.read("advert_refresh_secs", out.advertRefreshSecs);
  r.read("startup_sweep_delay_secs", out.startupSweepDelaySecs);
  r.read("startup_sweep_max_age_secs", out.startupSweepMaxAgeSecs);
  r.read("failure_streak_threshold", out.failureStreakThreshold);
  r.read("extended_cooldown_secs", out.extendedCooldownSecs);
  r.read("warn_log_interval_secs", out.warnLogIntervalSecs);
  r.read("failure_state_max_entries", out.failureStateMaxEntries);
  r.read("protocol_mismatch_cooldown_secs", out.protocolMismatchCooldownSecs);
}

void parseNostr(MapReader& r, NostrRendezvousConfig& out) {
  r.read("enabled", out.enabled);
  r.read("advertise", out.advertise);
  r.read("advert_relays", out.advertRelays);
  r.read("dm_relays", out.dmRelays);
  r.read("stun_servers", out.stunServers);
  r.read("share_local_candidates", out.shareLocalCandidates);
  r.read("app", out.app);
  r.read("signal_ttl_secs", out.signalTtlSecs);
  r.readEnum("policy", out.policy, NOSTR_POLICIES);
  r.read("open_discovery_max_pending", out.openDiscoveryMaxPending);
  r.read("max_concurrent_incoming_offers", out.maxConcurrentIncomingOffers);
  r.read("max_concurrent_offers_per_npub", out.maxConcurrentOffersPerNpub);
  r.read("advert_cache_max_entries", out.advertCacheMaxEntries);
  r.read("seen_sessions_max_entries", out.seenSessionsMaxEntries);
  parseNostrTimers(r, out);
}

void parseLan(MapReader& r, LanRendezvousConfig& out) {
  r.read("enabled", out.enabled);
  r.read("service_type", out.serviceType);
  r.read("scope", out.scope);
}

// A nostr/lan block replaces the whole table, defaults included (spec 08 §3.0).
void parseRendezvousInto(MapReader& r, RendezvousConfig& out) {
  r.section("nostr", [&](MapReader& n) {
    NostrRendezvousConfig fresh;
    parseNostr(n, fresh);
    out.nostr = std::move(fresh);
  });
  r.section("lan", [&](MapReader& l) {
    LanRendezvousConfig fresh;
    parseLan(l, fresh);
    out.lan = std::move(fresh);
  });
}

void parseTree(MapReader& r, TreeConfig& out) {
  r.read("announce_min_interval_ms", out.announceMinIntervalMs);
  r.read("parent_hysteresis", out.parentHysteresis);
  r.read("hold_down_secs", out.holdDownSecs);
  r.read("reeval_interval_secs", out.reevalIntervalSecs);
  r.read("flap_threshold", out.flapThreshold);
  r.read("flap_window_secs", out.flapWindowSecs);
  r.read("flap_dampening_secs", out.flapDampeningSecs);
}

void parseSession(MapReader& r, SessionConfig& out) {
  r.read("default_ttl", out.defaultTtl);
  r.read("pending_packets_per_dest", out.pendingPacketsPerDest);
  r.read("pending_max_destinations", out.pendingMaxDestinations);
  r.read("idle_timeout_secs", out.idleTimeoutSecs);
  r.read("coords_warmup_packets", out.coordsWarmupPackets);
  r.read("coords_response_interval_ms", out.coordsResponseIntervalMs);
}

void parseNativeApi(MapReader& r, NativeApiConfig& out) {
  r.read("enabled", out.enabled);
  r.read("socket_path", out.socketPath);
  r.read("pending_per_flow", out.pendingPerFlow);
  r.read("backlog", out.backlog);
  r.read("max_flows", out.maxFlows);
  r.read("debug_commands", out.debugCommands);
}

void parseMmp(MapReader& r, MmpConfig& out) {
  r.readEnum("mode", out.mode, MMP_MODES);
  r.read("log_interval_secs", out.logIntervalSecs);
  r.read("owd_window_size", out.owdWindowSize);
}

// Copies the origins recorded under `from` to the same keys under `to`, so
// checks on the folded values point at the lines that set them.
void aliasOrigins(Origins& origins, const std::string& from, const std::string& to) {
  Origins copies;
  for (const auto& [path, origin] : origins) {
    if (path.compare(0, from.size(), from) == 0) copies[to + path.substr(from.size())] = origin;
  }
  origins.insert(copies.begin(), copies.end());
}

// COMPAT: `node.discovery` (deprecated) folded into lookup/rendezvous; it
// wins over the new tables, as in the reference.
void parseDiscovery(MapReader& r, NodeConfig& out) {
  r.context().warn(r.line(),
                   "node.discovery is deprecated: use node.lookup.* and node.rendezvous.* "
                   "(applied for now)");
  parseLookup(r, out.lookup);
  parseRendezvousInto(r, out.rendezvous);
  aliasOrigins(r.context().origins(), "node.discovery.nostr", "node.rendezvous.nostr");
  aliasOrigins(r.context().origins(), "node.discovery.lan", "node.rendezvous.lan");
}

void parseNodeScalars(MapReader& r, NodeConfig& out) {
  r.read("leaf_only", out.leafOnly);
  r.read("tick_interval_secs", out.tickIntervalSecs);
  r.read("base_rtt_ms", out.baseRttMs);
  r.read("heartbeat_interval_secs", out.heartbeatIntervalSecs);
  r.read("link_dead_timeout_secs", out.linkDeadTimeoutSecs);
  r.read("drain_timeout_secs", out.drainTimeoutSecs);
  r.read("log_level", out.logLevel);
  r.read("user", out.user);
}

}  // namespace

void parseNode(MapReader& r, NodeConfig& out) {
  r.section("identity", [&](MapReader& s) {
    s.read("nsec", out.identity.nsec);
    s.read("persistent", out.identity.persistent);
  });
  parseNodeScalars(r, out);
  r.section("limits", [&](MapReader& s) { parseLimits(s, out.limits); });
  r.section("rate_limit", [&](MapReader& s) { parseRateLimit(s, out.rateLimit); });
  r.section("retry", [&](MapReader& s) { parseRetry(s, out.retry); });
  r.section("cache", [&](MapReader& s) { parseCache(s, out.cache); });
  r.section("lookup", [&](MapReader& s) { parseLookup(s, out.lookup); });
  r.section("rendezvous", [&](MapReader& s) { parseRendezvousInto(s, out.rendezvous); });
  r.section("tree", [&](MapReader& s) { parseTree(s, out.tree); });
  r.section("bloom", [&](MapReader& s) {
    s.read("update_debounce_ms", out.bloom.updateDebounceMs);
    s.read("max_inbound_fpr", out.bloom.maxInboundFpr);
  });
  r.section("session", [&](MapReader& s) { parseSession(s, out.session); });
  r.section("buffers", [&](MapReader& s) {
    s.read("packet_channel", out.buffers.packetChannel);
    s.read("tun_channel", out.buffers.tunChannel);
    s.read("dns_channel", out.buffers.dnsChannel);
  });
  r.section("control", [&](MapReader& s) {
    s.read("enabled", out.control.enabled);
    s.read("socket_path", out.control.socketPath);
    s.read("json_compat", out.control.jsonCompat);
  });
  r.section("native_api", [&](MapReader& s) { parseNativeApi(s, out.nativeApi); });
  r.section("mmp", [&](MapReader& s) { parseMmp(s, out.mmp); });
  r.section("session_mmp", [&](MapReader& s) { parseMmp(s, out.sessionMmp); });
  r.section("ecn", [&](MapReader& s) {
    s.read("enabled", out.ecn.enabled);
    s.read("loss_threshold", out.ecn.lossThreshold);
    s.read("etx_threshold", out.ecn.etxThreshold);
  });
  r.section("rekey", [&](MapReader& s) {
    s.read("enabled", out.rekey.enabled);
    s.read("after_secs", out.rekey.afterSecs);
    s.read("after_messages", out.rekey.afterMessages);
  });
  r.section("discovery", [&](MapReader& s) { parseDiscovery(s, out); });
}

}  // namespace fips::privsep::config
