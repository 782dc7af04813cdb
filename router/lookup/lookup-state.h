// SPDX-License-Identifier: MIT
// LookupState: sans-IO coordinate discovery (FIPS spec 03 §5.3;
// src/proto/lookup/core.rs, src/node/handlers/lookup.rs). It originates
// lookups with the attempt ladder, answers requests for our own address,
// forwards requests and responses in transit, and verifies and caches the
// answers to our own lookups. Clock (nowMs, monotonic) and randomness are
// injected; every effect on the network comes back as LookupActions for the
// caller to execute. Runs in fips-router; message bodies are untrusted.
//
// The caller drives it:
//   LookupRequest body from peer F  → onRequest(view, F, body, now, out)
//   LookupResponse body from a peer → onResponse(view, ids, coords, body, now, out)
//   a packet needs dest's coordinates → start(view, dest, now, out)
//   every tick (e.g. 100 ms .. 1 s)  → tick(view, now, out)
//   tree parent change / new peer    → resetBackoff()
// and then sends each LookupSend, retries queued packets for each resolved
// target and fails those for each unreachable one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "router/lookup/forward-limiter.h"
#include "router/lookup/lookup-messages.h"
#include "router/lookup/recent-requests.h"
#include "router/routing/coord-cache.h"
#include "router/routing/identity-cache.h"
#include "router/routing/mesh-view.h"

namespace fips::router::lookup {

// node.lookup.* (spec 03 §8) and the dedup cap.
struct LookupConfig {
  uint8_t ttl = 64;  // of the requests we originate
  // One entry per attempt: its timeout in seconds; after the last, unreachable.
  std::vector<uint64_t> attemptTimeoutsSecs{1, 2, 4, 8};
  uint64_t recentExpirySecs = 10;       // dedup entry lifetime
  uint64_t forwardMinIntervalSecs = 2;  // per origin and target, transit forwards
  uint64_t backoffBaseSecs = 0;         // after a failed lookup; 0 = off
  uint64_t backoffMaxSecs = 0;
  size_t maxRecentRequests = 4096;  // dedup table cap (MAX_RECENT_LOOKUP_REQUESTS)
};

// Path MTUs below this in a LookupResponse are not cached (spec 04 §5).
constexpr uint16_t MIN_ACTIONABLE_PATH_MTU = 256;

// One lookup message (0x30 / 0x31, type byte first) for each listed peer.
struct LookupSend {
  std::vector<NodeAddr> peers;
  std::vector<uint8_t> message;
};

// A verified answer to one of our lookups; its coordinates (and path MTU
// when >= 256) are already in the CoordCache.
struct LookupResolved {
  NodeAddr target;
  uint64_t requestId = 0;
  uint16_t pathMtu = 0;  // as received, bytes
};

// What the caller must do after a call. Calls append; the caller clears.
struct LookupActions {
  std::vector<LookupSend> sends;
  std::vector<LookupResolved> resolved;  // retry queued packets, reset session warmup
  std::vector<NodeAddr> unreachable;  // attempts exhausted: ICMPv6 unreachable for queued packets
  // A peer sent us a request for another node, so its copy of our bloom
  // filter holds that target: the caller can check that the filter it last
  // sent the peer does (BloomState::advertised) and re-send it if not.
  struct RoutedHere {
    NodeAddr from;
    NodeAddr target;
  };
  std::vector<RoutedHere> routedHere;
};

// Result of start().
enum class LookupStart : uint8_t {
  STARTED,          // request sent to >= 1 tree peer; the attempt ladder runs
  ALREADY_PENDING,  // a lookup for the target is in flight
  BACKOFF,          // suppressed after earlier failures (off by default)
  BLOOM_MISS,       // no peer's bloom filter contains the target
  NO_TREE_PEER,     // no tree peer's filter contains it (no non-tree fallback at origination)
};

// Counters named as the reference's lookup stats.
struct LookupCounters {
  uint64_t reqReceived = 0, reqDecodeError = 0, reqDuplicate = 0, reqDedupCacheFull = 0;
  uint64_t reqTargetIsUs = 0, reqForwarded = 0, reqTtlExhausted = 0, reqInitiated = 0;
  uint64_t reqDeduplicated = 0, reqBackoffSuppressed = 0, reqForwardRateLimited = 0;
  uint64_t reqBloomMiss = 0, reqNoTreePeer = 0, reqFallbackForwarded = 0;
  uint64_t reqOwnReturned = 0;  // our own request back from a peer: dropped (not a reference stat)
  uint64_t respReceived = 0, respDecodeError = 0, respForwarded = 0, respAlreadyForwarded = 0;
  uint64_t respIdentityMiss = 0, respProofFailed = 0, respAccepted = 0, respTimedOut = 0;
  uint64_t respMtuBelowFloor = 0, respNoRoute = 0, signFailed = 0, rngFailed = 0;
};

// One lookup this node originated that has not been answered yet.
struct PendingLookup {
  NodeAddr target;
  uint64_t initiatedMs = 0;  // monotonic ms of the first request
  uint64_t lastSentMs = 0;   // monotonic ms of the latest attempt
  size_t attempt = 1;        // 1 = first request
};

class LookupState {
 public:
  // config, ctx, identity (our key: it signs the proofs for
  // view.selfAddr()) and rng must outlive this object.
  LookupState(const LookupConfig& config, const crypto::Secp256k1Context& ctx,
              const crypto::SecretKey& identity, crypto::Rng& rng);
  LookupState(LookupConfig&&, const crypto::Secp256k1Context&, const crypto::SecretKey&,
              crypto::Rng&) = delete;  // the config must outlive the state

  // Origination (maybe_initiate_lookup): skip if pending, backed off, or no
  // peer's filter has target; else send a fresh request to every tree peer
  // whose filter contains target. The origin records no dedup entry.
  LookupStart start(const routing::MeshView& view, const NodeAddr& target, uint64_t nowMs,
                    LookupActions& out);

  // Attempt ladder: an attempt whose timeout passed is re-sent with a fresh
  // request_id, or after the last the target is reported unreachable.
  void tick(const routing::MeshView& view, uint64_t nowMs, LookupActions& out);

  // A LookupRequest body (after 0x30) from peer `from`.
  void onRequest(const routing::MeshView& view, const NodeAddr& from, std::span<const uint8_t> body,
                 uint64_t nowMs, LookupActions& out);

  // A LookupResponse body (after 0x31) from any peer: forwarded once along
  // the reverse path recorded for its request_id, or (no such record: ours)
  // verified with the target's key from ids and cached in coords.
  void onResponse(const routing::MeshView& view, routing::IdentityCache& ids,
                  routing::CoordCache& coords, std::span<const uint8_t> body, uint64_t nowMs,
                  LookupActions& out);

  // Clears the backoff after a topology change.
  void resetBackoff() { backoff_.clear(); }

  bool isPending(const NodeAddr& target) const { return pending_.contains(target); }
  size_t pendingCount() const { return pending_.size(); }
  // Our own lookups waiting for an answer, by target (fipsctl show routing).
  std::vector<PendingLookup> pendingLookups() const;
  size_t recentCount() const { return recent_.size(); }
  const LookupCounters& counters() const { return counters_; }

 private:
  struct Pending {
    uint64_t initiatedMs = 0;
    uint64_t lastSentMs = 0;
    size_t attempt = 1;  // 1 = first request
  };
  struct Backoff {
    uint64_t suppressUntilMs = 0;
    uint32_t failures = 0;
  };

  size_t sendRequest(const routing::MeshView& view, const NodeAddr& target, LookupActions& out);
  void forwardRequest(const routing::MeshView& view, LookupRequest request, LookupActions& out);
  void respond(const routing::MeshView& view, const LookupRequest& request, const NodeAddr& to,
               LookupActions& out);
  void accept(routing::IdentityCache& ids, routing::CoordCache& coords,
              const LookupResponse& response, uint64_t nowMs, LookupActions& out);
  void recordFailure(const NodeAddr& target, uint64_t nowMs);
  bool suppressed(const NodeAddr& target, uint64_t nowMs) const;

  const LookupConfig& config_;
  const crypto::Secp256k1Context& ctx_;
  const crypto::SecretKey& identity_;
  crypto::Rng& rng_;
  std::map<NodeAddr, Pending> pending_;
  std::map<NodeAddr, Backoff> backoff_;
  RecentRequests recent_;
  ForwardLimiter forwardLimiter_;  // transit forwards per (origin, target)
  LookupCounters counters_;
};

}  // namespace fips::router::lookup
