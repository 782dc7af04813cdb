// SPDX-License-Identifier: MIT
// Typed `node.*` section of fips.yaml (spec 08 §3.2, 07 §7-8): plain value
// aggregates whose member initializers are the reference's defaults, the one
// place each default is written (the router's settings are filled from
// these; privsep.slices checks its built-in ones agree). Each member's YAML
// key, doc string and check are its line in node-fields.h. Built by the loader in the fips
// supervisor and in fipsctl; the values were validated by the loader, but the
// file they came from is operator input and is only as trusted as its owner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fips::privsep::config {

// `node.identity.*`.
struct IdentityConfig {
  // nsec1... bech32 or 64 hex chars; only its shape is checked here. Secret:
  // never logged or printed (toYaml omits it), see wipeSecrets().
  std::optional<std::string> nsec;
  bool persistent = false;

  bool operator==(const IdentityConfig&) const = default;
};

struct LimitsConfig {
  std::size_t maxConnections = 256;
  std::size_t maxPeers = 128;
  std::size_t maxLinks = 256;
  std::size_t maxPendingInbound = 1000;

  bool operator==(const LimitsConfig&) const = default;
};

struct RateLimitConfig {
  std::uint32_t handshakeBurst = 100;
  double handshakeRate = 10.0;
  std::uint64_t handshakeTimeoutSecs = 30;
  std::uint64_t handshakeResendIntervalMs = 1000;
  double handshakeResendBackoff = 2.0;
  std::uint32_t handshakeMaxResends = 5;
  // Unset: derived from node.limits.max_peers by the router.
  std::optional<std::uint32_t> establishedHandshakeBurst;
  std::optional<double> establishedHandshakeRate;
  std::uint32_t sessionSetupBurst = 64;
  double sessionSetupRate = 16.0;

  bool operator==(const RateLimitConfig&) const = default;
};

struct RetryConfig {
  std::uint32_t maxRetries = 5;
  std::uint64_t baseIntervalSecs = 5;
  std::uint64_t maxBackoffSecs = 300;

  bool operator==(const RetryConfig&) const = default;
};

struct CacheConfig {
  std::size_t coordSize = 50000;
  std::uint64_t coordTtlSecs = 300;
  std::size_t identitySize = 10000;

  bool operator==(const CacheConfig&) const = default;
};

struct LookupConfig {
  std::uint8_t ttl = 64;
  std::vector<std::uint64_t> attemptTimeoutsSecs = {1, 2, 4, 8};
  std::uint64_t recentExpirySecs = 10;
  std::uint64_t backoffBaseSecs = 0;
  std::uint64_t backoffMaxSecs = 0;
  std::uint64_t forwardMinIntervalSecs = 2;

  bool operator==(const LookupConfig&) const = default;
};

enum class NostrPolicy { DISABLED, CONFIGURED_ONLY, OPEN };

// `node.rendezvous.nostr.*` (spec 07 §8).
struct NostrRendezvousConfig {
  bool enabled = false;
  bool advertise = true;
  std::vector<std::string> advertRelays = {"wss://relay.damus.io", "wss://nos.lol",
                                           "wss://offchain.pub"};
  std::vector<std::string> dmRelays = {"wss://relay.damus.io", "wss://nos.lol",
                                       "wss://offchain.pub"};
  std::vector<std::string> stunServers = {"stun:stun.l.google.com:19302",
                                          "stun:stun.cloudflare.com:3478",
                                          "stun:global.stun.twilio.com:3478"};
  bool shareLocalCandidates = false;
  std::string app = "fips-overlay-v1";
  std::uint64_t signalTtlSecs = 120;
  NostrPolicy policy = NostrPolicy::CONFIGURED_ONLY;
  std::size_t openDiscoveryMaxPending = 64;
  std::size_t maxConcurrentIncomingOffers = 16;
  std::size_t maxConcurrentOffersPerNpub = 4;
  std::size_t advertCacheMaxEntries = 2048;
  std::size_t seenSessionsMaxEntries = 2048;
  std::uint64_t attemptTimeoutSecs = 10;
  std::uint64_t replayWindowSecs = 300;
  std::uint64_t punchStartDelayMs = 2000;
  std::uint64_t punchIntervalMs = 200;
  std::uint64_t punchDurationMs = 10000;
  std::uint64_t advertTtlSecs = 3600;
  std::uint64_t advertRefreshSecs = 1800;
  std::uint64_t startupSweepDelaySecs = 5;
  std::uint64_t startupSweepMaxAgeSecs = 3600;
  std::uint32_t failureStreakThreshold = 5;
  std::uint64_t extendedCooldownSecs = 1800;
  std::uint64_t warnLogIntervalSecs = 300;
  std::size_t failureStateMaxEntries = 4096;
  std::uint64_t protocolMismatchCooldownSecs = 86400;

  bool operator==(const NostrRendezvousConfig&) const = default;
};

// `node.rendezvous.lan.*` (spec 07 §7).
struct LanRendezvousConfig {
  bool enabled = false;
  std::string serviceType = "_fips._udp.local.";
  std::optional<std::string> scope;

  bool operator==(const LanRendezvousConfig&) const = default;
};

struct RendezvousConfig {
  NostrRendezvousConfig nostr;
  LanRendezvousConfig lan;

  bool operator==(const RendezvousConfig&) const = default;
};

struct TreeConfig {
  std::uint64_t announceMinIntervalMs = 500;
  double parentHysteresis = 0.2;
  std::uint64_t holdDownSecs = 30;
  std::uint64_t reevalIntervalSecs = 60;
  std::uint32_t flapThreshold = 4;
  std::uint64_t flapWindowSecs = 60;
  std::uint64_t flapDampeningSecs = 120;

  bool operator==(const TreeConfig&) const = default;
};

struct BloomConfig {
  std::uint64_t updateDebounceMs = 500;
  double maxInboundFpr = 0.20;

  bool operator==(const BloomConfig&) const = default;
};

struct SessionConfig {
  std::uint8_t defaultTtl = 64;
  std::size_t pendingPacketsPerDest = 16;
  std::size_t pendingMaxDestinations = 256;
  std::uint64_t idleTimeoutSecs = 90;
  std::uint8_t coordsWarmupPackets = 5;
  std::uint64_t coordsResponseIntervalMs = 2000;

  bool operator==(const SessionConfig&) const = default;
};

struct BuffersConfig {
  std::size_t packetChannel = 1024;
  std::size_t tunChannel = 1024;
  std::size_t dnsChannel = 64;

  bool operator==(const BuffersConfig&) const = default;
};

struct ControlConfig {
  bool enabled = true;
  // Unset: resolved at startup (/run/fips/control.sock, then
  // $XDG_RUNTIME_DIR/fips/control.sock, then /tmp/fips-control.sock; spec 08 §1).
  std::optional<std::string> socketPath;
  // Our key beyond the reference's: the control socket also answers the
  // reference's line-delimited JSON protocol (a client whose first byte is
  // '{' or whitespace), so scripts written for the reference keep working.
  bool jsonCompat = false;

  bool operator==(const ControlConfig&) const = default;
};

struct NativeApiConfig {
  bool enabled = false;
  // Unset: resolved like node.control.socket_path, with api.sock.
  std::optional<std::string> socketPath;
  std::size_t pendingPerFlow = 16;  // 1..MAX_PENDING_PER_FLOW
  std::size_t backlog = 16;         // >= 1
  std::size_t maxFlows = 256;
  bool debugCommands = false;

  bool operator==(const NativeApiConfig&) const = default;
};

constexpr std::size_t MAX_PENDING_PER_FLOW = 64;

enum class MmpMode { FULL, LIGHTWEIGHT, MINIMAL };

// `node.mmp.*` and `node.session_mmp.*` share this shape.
struct MmpConfig {
  MmpMode mode = MmpMode::FULL;
  std::uint64_t logIntervalSecs = 30;
  std::size_t owdWindowSize = 32;

  bool operator==(const MmpConfig&) const = default;
};

struct EcnConfig {
  bool enabled = true;
  double lossThreshold = 0.05;
  double etxThreshold = 3.0;

  bool operator==(const EcnConfig&) const = default;
};

struct RekeyConfig {
  bool enabled = true;
  std::uint64_t afterSecs = 120;        // must exceed REKEY_JITTER_SECS
  std::uint64_t afterMessages = 65536;  // >= 1

  bool operator==(const RekeyConfig&) const = default;
};

// Per-session rekey jitter of the reference (src/node/mod.rs); rekey.after_secs
// must be larger.
constexpr std::uint64_t REKEY_JITTER_SECS = 15;

// `node.*`. The deprecated `node.discovery` block is folded into `lookup` and
// `rendezvous` while parsing and is not kept.
struct NodeConfig {
  IdentityConfig identity;
  bool leafOnly = false;
  std::uint64_t tickIntervalSecs = 1;
  std::uint64_t baseRttMs = 100;
  std::uint64_t heartbeatIntervalSecs = 10;
  std::uint64_t linkDeadTimeoutSecs = 30;
  // Unset means 2 s; 0 is a valid immediate drain.
  std::optional<std::uint64_t> drainTimeoutSecs;
  // Kept as written; see logLevel() in log-level.h for its meaning.
  std::optional<std::string> logLevel;
  // fips-cpp extension, not a reference key: the unprivileged user that
  // fips-router and the transport workers run as.
  std::string user = "fips";
  LimitsConfig limits;
  RateLimitConfig rateLimit;
  RetryConfig retry;
  CacheConfig cache;
  LookupConfig lookup;
  RendezvousConfig rendezvous;
  TreeConfig tree;
  BloomConfig bloom;
  SessionConfig session;
  BuffersConfig buffers;
  ControlConfig control;
  NativeApiConfig nativeApi;
  MmpConfig mmp;
  MmpConfig sessionMmp;
  EcnConfig ecn;
  RekeyConfig rekey;

  bool operator==(const NodeConfig&) const = default;
};

}  // namespace fips::privsep::config
