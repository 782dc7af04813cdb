// SPDX-License-Identifier: MIT
// Internal to the fips.yaml loader: the field tables of `node.*` (spec 08
// §3.2, 07 §7-8), one per struct of node-config.h, in print order. A key is
// one line here: its YAML name, its member (whose initializer is the
// default), its doc string for docs/reference/config.md, and its check.
// Compile-time only; runs in the fips supervisor and fipsctl.
#pragma once

#include <tuple>

#include "privsep/config/field-checks.h"
#include "privsep/config/field-spec.h"
#include "privsep/config/node-config.h"

namespace fips::privsep::config {

inline std::optional<std::string_view> hideNsec(const std::optional<std::string>& nsec) {
  return nsec ? "node.identity.nsec is set (not shown)" : "";
}

inline constexpr std::tuple IDENTITY_FIELDS{
    field("nsec", &IdentityConfig::nsec, "secret key (nsec1... or 64 hex); unset: key files",
          {.hide = hideNsec}),
    field("persistent", &IdentityConfig::persistent,
          "keep the key in fips.key across restarts (false: a new identity each start)"),
};

inline constexpr std::tuple LIMITS_FIELDS{
    field("max_connections", &LimitsConfig::maxConnections, "connections of all transports"),
    field("max_peers", &LimitsConfig::maxPeers, "active peers; 0 = unlimited"),
    field("max_links", &LimitsConfig::maxLinks, "handshaking + active links; 0 = unlimited"),
    field("max_pending_inbound", &LimitsConfig::maxPendingInbound, "inbound handshakes in flight"),
};

inline constexpr std::tuple RATE_LIMIT_FIELDS{
    field("handshake_burst", &RateLimitConfig::handshakeBurst,
          "msg1 token bucket size for strangers"),
    field("handshake_rate", &RateLimitConfig::handshakeRate,
          "msg1 tokens per second (.inf: no limit)", {.check = checks::positiveOrInf}),
    field("handshake_timeout_secs", &RateLimitConfig::handshakeTimeoutSecs,
          "whole outbound handshake"),
    field("handshake_resend_interval_ms", &RateLimitConfig::handshakeResendIntervalMs,
          "first msg1 resend"),
    field("handshake_resend_backoff", &RateLimitConfig::handshakeResendBackoff,
          "resend interval factor", {.check = checks::positiveOrInf}),
    field("handshake_max_resends", &RateLimitConfig::handshakeMaxResends,
          "msg1 resends before giving up"),
    field("established_handshake_burst", &RateLimitConfig::establishedHandshakeBurst,
          "bucket for known peers; unset: from node.limits.max_peers",
          {.check = checks::optNonZeroBurst}),
    field("established_handshake_rate", &RateLimitConfig::establishedHandshakeRate,
          "tokens per second for known peers; unset: derived",
          {.check = checks::optPositiveFinite}),
    field("session_setup_burst", &RateLimitConfig::sessionSetupBurst,
          "SessionSetup bucket per link peer", {.check = checks::nonZero}),
    field("session_setup_rate", &RateLimitConfig::sessionSetupRate,
          "SessionSetup tokens per second", {.check = checks::positiveFinite}),
};

inline constexpr std::tuple RETRY_FIELDS{
    field("max_retries", &RetryConfig::maxRetries, "reconnect attempts of a static peer"),
    field("base_interval_secs", &RetryConfig::baseIntervalSecs, "reconnect delay base (x 2^n)"),
    field("max_backoff_secs", &RetryConfig::maxBackoffSecs, "reconnect delay cap"),
};

inline constexpr std::tuple CACHE_FIELDS{
    field("coord_size", &CacheConfig::coordSize, "coordinate cache entries"),
    field("coord_ttl_secs", &CacheConfig::coordTtlSecs, "coordinate cache entry lifetime"),
    field("identity_size", &CacheConfig::identitySize, "identity cache entries"),
};

inline constexpr std::tuple LOOKUP_FIELDS{
    field("ttl", &LookupConfig::ttl, "hop limit of the lookups we originate"),
    field("attempt_timeouts_secs", &LookupConfig::attemptTimeoutsSecs,
          "one timeout per attempt; after the last, unreachable"),
    field("recent_expiry_secs", &LookupConfig::recentExpirySecs, "request dedup lifetime"),
    field("backoff_base_secs", &LookupConfig::backoffBaseSecs, "after a failed lookup; 0 = off"),
    field("backoff_max_secs", &LookupConfig::backoffMaxSecs, "lookup backoff cap"),
    field("forward_min_interval_secs", &LookupConfig::forwardMinIntervalSecs,
          "per origin and target, transit forwards"),
};

inline constexpr std::tuple NOSTR_FIELDS{
    field("enabled", &NostrRendezvousConfig::enabled,
          "Nostr rendezvous (adverts, signalling, hole punching)"),
    field("advertise", &NostrRendezvousConfig::advertise, "publish our transport adverts"),
    field("advert_relays", &NostrRendezvousConfig::advertRelays, "relays for adverts"),
    field("dm_relays", &NostrRendezvousConfig::dmRelays, "relays for signalling messages"),
    field("stun_servers", &NostrRendezvousConfig::stunServers,
          "STUN servers for our reflexive address"),
    field("share_local_candidates", &NostrRendezvousConfig::shareLocalCandidates,
          "offer LAN addresses too"),
    field("app", &NostrRendezvousConfig::app, "application tag of adverts and signals"),
    field("signal_ttl_secs", &NostrRendezvousConfig::signalTtlSecs, "signal lifetime"),
    field("policy", &NostrRendezvousConfig::policy,
          "who may reach us: disabled, configured_only or open"),
    field("open_discovery_max_pending", &NostrRendezvousConfig::openDiscoveryMaxPending,
          "open policy: strangers queued"),
    field("max_concurrent_incoming_offers", &NostrRendezvousConfig::maxConcurrentIncomingOffers,
          "offers handled at once"),
    field("max_concurrent_offers_per_npub", &NostrRendezvousConfig::maxConcurrentOffersPerNpub,
          "offers at once from one npub", {.check = checks::semaphorePermits}),
    field("advert_cache_max_entries", &NostrRendezvousConfig::advertCacheMaxEntries,
          "adverts kept"),
    field("seen_sessions_max_entries", &NostrRendezvousConfig::seenSessionsMaxEntries,
          "signal sessions remembered"),
    field("attempt_timeout_secs", &NostrRendezvousConfig::attemptTimeoutSecs,
          "one traversal attempt"),
    field("replay_window_secs", &NostrRendezvousConfig::replayWindowSecs,
          "must exceed signal_ttl_secs + 120 (clock skew)"),
    field("punch_start_delay_ms", &NostrRendezvousConfig::punchStartDelayMs,
          "before the first punch"),
    field("punch_interval_ms", &NostrRendezvousConfig::punchIntervalMs, "between punches"),
    field("punch_duration_ms", &NostrRendezvousConfig::punchDurationMs,
          "punching stops after this"),
    field("advert_ttl_secs", &NostrRendezvousConfig::advertTtlSecs, "advert lifetime"),
    field("advert_refresh_secs", &NostrRendezvousConfig::advertRefreshSecs,
          "advert republish interval"),
    field("startup_sweep_delay_secs", &NostrRendezvousConfig::startupSweepDelaySecs,
          "first advert sweep"),
    field("startup_sweep_max_age_secs", &NostrRendezvousConfig::startupSweepMaxAgeSecs,
          "adverts older are skipped"),
    field("failure_streak_threshold", &NostrRendezvousConfig::failureStreakThreshold,
          "failures before the extended cooldown"),
    field("extended_cooldown_secs", &NostrRendezvousConfig::extendedCooldownSecs,
          "cooldown after a streak"),
    field("warn_log_interval_secs", &NostrRendezvousConfig::warnLogIntervalSecs,
          "rate limit of warnings"),
    field("failure_state_max_entries", &NostrRendezvousConfig::failureStateMaxEntries,
          "peers with failure state"),
    field("protocol_mismatch_cooldown_secs", &NostrRendezvousConfig::protocolMismatchCooldownSecs,
          "cooldown after a version mismatch"),
};

inline constexpr std::tuple LAN_FIELDS{
    field("enabled", &LanRendezvousConfig::enabled, "mDNS discovery on the LAN"),
    field("service_type", &LanRendezvousConfig::serviceType, "mDNS service type"),
    field("scope", &LanRendezvousConfig::scope, "interface to announce on; unset: all"),
};

inline constexpr std::tuple RENDEZVOUS_FIELDS{
    section("nostr", &RendezvousConfig::nostr, NOSTR_FIELDS, "Nostr rendezvous (spec 07 §8)",
            SectionMode::REPLACE),
    section("lan", &RendezvousConfig::lan, LAN_FIELDS, "LAN discovery (spec 07 §7)",
            SectionMode::REPLACE),
};

inline constexpr std::tuple TREE_FIELDS{
    field("announce_min_interval_ms", &TreeConfig::announceMinIntervalMs,
          "per-peer TreeAnnounce rate limit"),
    field("parent_hysteresis", &TreeConfig::parentHysteresis,
          "a switch needs best < current x (1 - h)"),
    field("hold_down_secs", &TreeConfig::holdDownSecs,
          "no discretionary switch this long after a parent change; 0 = off"),
    field("reeval_interval_secs", &TreeConfig::reevalIntervalSecs,
          "periodic re-evaluation and re-announce; 0 = off"),
    field("flap_threshold", &TreeConfig::flapThreshold,
          "parent changes within the window that engage dampening"),
    field("flap_window_secs", &TreeConfig::flapWindowSecs, "window of the flap count"),
    field("flap_dampening_secs", &TreeConfig::flapDampeningSecs,
          "discretionary switches suppressed this long"),
};

inline constexpr std::tuple BLOOM_FIELDS{
    field("update_debounce_ms", &BloomConfig::updateDebounceMs,
          "per-peer gap between FilterAnnounces"),
    field("max_inbound_fpr", &BloomConfig::maxInboundFpr,
          "inbound filters with a higher false-positive rate are refused"),
};

inline constexpr std::tuple SESSION_FIELDS{
    field("default_ttl", &SessionConfig::defaultTtl, "hop limit of session datagrams"),
    field("pending_packets_per_dest", &SessionConfig::pendingPacketsPerDest,
          "packets queued while a session is set up"),
    field("pending_max_destinations", &SessionConfig::pendingMaxDestinations,
          "destinations with queued packets"),
    field("idle_timeout_secs", &SessionConfig::idleTimeoutSecs, "idle session teardown; 0 = off"),
    field("coords_warmup_packets", &SessionConfig::coordsWarmupPackets,
          "packets that carry coordinates after setup"),
    field("coords_response_interval_ms", &SessionConfig::coordsResponseIntervalMs,
          "rate limit of coordinate answers"),
};

inline constexpr std::tuple BUFFERS_FIELDS{
    field("packet_channel", &BuffersConfig::packetChannel, "packet queue depth"),
    field("tun_channel", &BuffersConfig::tunChannel, "TUN queue depth"),
    field("dns_channel", &BuffersConfig::dnsChannel, "DNS queue depth"),
};

inline constexpr std::tuple CONTROL_FIELDS{
    field("enabled", &ControlConfig::enabled, "the fipsctl control socket"),
    field("socket_path", &ControlConfig::socketPath,
          "unset: /run/fips/control.sock, $XDG_RUNTIME_DIR/fips/, /tmp/fips-control.sock"),
    field("json_compat", &ControlConfig::jsonCompat,
          "fips-cpp: also answer the reference's JSON-line clients"),
};

inline constexpr std::tuple NATIVE_API_FIELDS{
    field("enabled", &NativeApiConfig::enabled, "the native application API socket"),
    field("socket_path", &NativeApiConfig::socketPath, "unset: as control, api.sock"),
    field("pending_per_flow", &NativeApiConfig::pendingPerFlow, "1..64 datagrams queued per flow",
          {.check = checks::pendingPerFlow}),
    field("backlog", &NativeApiConfig::backlog, "listen backlog (>= 1)",
          {.check = checks::atLeastOne}),
    field("max_flows", &NativeApiConfig::maxFlows, "flows at once"),
    field("debug_commands", &NativeApiConfig::debugCommands, "allow debug commands"),
};

inline constexpr std::tuple MMP_FIELDS{
    field("mode", &MmpConfig::mode, "metrics reports: full, lightweight or minimal"),
    field("log_interval_secs", &MmpConfig::logIntervalSecs, "metrics log interval"),
    field("owd_window_size", &MmpConfig::owdWindowSize, "one-way-delay trend samples"),
};

inline constexpr std::tuple ECN_FIELDS{
    field("enabled", &EcnConfig::enabled, "mark congestion (ECN CE) on lossy links"),
    field("loss_threshold", &EcnConfig::lossThreshold, "loss rate that marks"),
    field("etx_threshold", &EcnConfig::etxThreshold, "ETX that marks"),
};

inline constexpr std::tuple REKEY_FIELDS{
    field("enabled", &RekeyConfig::enabled, "rekey links and sessions"),
    field("after_secs", &RekeyConfig::afterSecs, "rekey after this long (> 15)",
          {.check = checks::rekeyAfterSecs}),
    field("after_messages", &RekeyConfig::afterMessages, "rekey after this many messages",
          {.check = checks::atLeastOne}),
};

inline constexpr std::tuple NODE_FIELDS{
    section("identity", &NodeConfig::identity, IDENTITY_FIELDS,
            "the node's key; nsec: the secret key (nsec1... or 64 hex), unset: fips.key"),
    field("leaf_only", &NodeConfig::leafOnly, "never forward for others"),
    field("tick_interval_secs", &NodeConfig::tickIntervalSecs, "timer tick"),
    field("base_rtt_ms", &NodeConfig::baseRttMs, "RTT assumed before one is measured"),
    field("heartbeat_interval_secs", &NodeConfig::heartbeatIntervalSecs, "link heartbeat"),
    field("link_dead_timeout_secs", &NodeConfig::linkDeadTimeoutSecs,
          "silent this long: link dead"),
    field("drain_timeout_secs", &NodeConfig::drainTimeoutSecs, "shutdown drain; unset: 2, 0: none"),
    field("log_level", &NodeConfig::logLevel, "trace, debug, info, warn or error; unset: info"),
    field("user", &NodeConfig::user, "fips-cpp: the user of fips-router and the transport workers",
          {.check = checks::userName,
           .note = "fips-cpp extension: the user fips-router and the transport workers run as"}),
    section("limits", &NodeConfig::limits, LIMITS_FIELDS, "connection limits"),
    section("rate_limit", &NodeConfig::rateLimit, RATE_LIMIT_FIELDS,
            "handshake rate limits and timers"),
    section("retry", &NodeConfig::retry, RETRY_FIELDS, "reconnection of static peers"),
    section("cache", &NodeConfig::cache, CACHE_FIELDS, "coordinate and identity caches"),
    section("lookup", &NodeConfig::lookup, LOOKUP_FIELDS, "destination lookups (spec 03 §8)"),
    section("rendezvous", &NodeConfig::rendezvous, RENDEZVOUS_FIELDS, "peer discovery"),
    section("tree", &NodeConfig::tree, TREE_FIELDS, "spanning tree (spec 03 §8)"),
    section("bloom", &NodeConfig::bloom, BLOOM_FIELDS, "bloom filter propagation (spec 03 §8)"),
    section("session", &NodeConfig::session, SESSION_FIELDS, "end-to-end sessions (spec 04 §8)"),
    section("buffers", &NodeConfig::buffers, BUFFERS_FIELDS, "internal queue depths"),
    section("control", &NodeConfig::control, CONTROL_FIELDS, "the control socket"),
    section("native_api", &NodeConfig::nativeApi, NATIVE_API_FIELDS, "the native API"),
    section("mmp", &NodeConfig::mmp, MMP_FIELDS, "link metrics (spec 02 §9)"),
    section("session_mmp", &NodeConfig::sessionMmp, MMP_FIELDS, "session metrics"),
    section("ecn", &NodeConfig::ecn, ECN_FIELDS, "congestion marking"),
    section("rekey", &NodeConfig::rekey, REKEY_FIELDS, "rekeying (spec 01 §8)"),
};

}  // namespace fips::privsep::config
