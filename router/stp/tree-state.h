// SPDX-License-Identifier: MIT
// TreeState: the sans-IO spanning tree of one node (FIPS spec 03 §1-§3): our
// signed parent declaration and coordinates, every peer's latest declaration
// and ancestry, parent selection, and when to send TreeAnnounce to whom. Runs
// in fips-router. Bodies handed to onTreeAnnounce() are the peer's choice
// (untrusted): each is accepted or dropped with a typed verdict, never thrown.
//
// The caller (the mesh node) drives it and executes what it returns:
//   link up        → addPeer(peer, key, now)
//   link down      → removePeer(peer, costs, now)
//   TreeAnnounce   → onTreeAnnounce(from, body, costs, now)
//   every tick     → tick(costs, now)            (≈ every second)
//   link cost news → reevaluate(costs, now)      (e.g. first RTT measured)
// Each returns a TreeOutput: send announceBody() as a TreeAnnounce (0x10) to
// every peer in announceTo, then apply the flags (bloom, coordinate cache,
// lookup backoff). Nothing here does I/O or reads a clock.
//
// Departures from the reference (src/node/tree.rs), none visible on the wire
// except as extra or earlier announces:
// - bloomRecheck is also raised when the announcing peer becomes or stops
//   being our child. The reference re-checks filters only on the next inbound
//   FilterAnnounce, so a child's filter that arrives before its TreeAnnounce
//   (rate limit vs tick order) is never propagated upward.
// - LOOP_DROP reports parentChanged (bloom markAll); the reference does not
//   mark filters there although our tree peers changed.
// - A peer listed once in an output is not rate limited again by a second
//   send in the same call (echo, then announce-to-all): the caller sends the
//   latest body once instead of deferring an identical copy.
// - On parent loss, peers whose stored declaration predates the loss and may
//   be as stale as ours are distrusted: those whose path runs through the
//   lost parent, and those on a worse root than ours (we echoed our root to
//   them, so they may already have joined through us and the lost parent,
//   their announce still rate limited). Children are excluded as before. A
//   distrusted peer is neither a parent candidate nor a visible root until
//   it is heard again; an announce with the same sequence as the stored one
//   counts (its echo of our new declaration), so a path that still holds is
//   taken back one exchange later. The reference picks from those paths at
//   once, and when a root's neighbours lose it together each picks the
//   other for one exchange (LOOP_DROP undoes it).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "router/stp/coordinates.h"
#include "router/stp/flap-dampener.h"
#include "router/stp/tree-announce.h"
#include "router/stp/tree-config.h"

namespace fips::router::stp {

// The two clocks the tree reads, sampled by the caller once per call.
struct TreeNow {
  uint64_t monoMs = 0;    // monotonic milliseconds: rate limits, hold-down, flap, re-evaluation
  uint64_t unixSecs = 0;  // wall clock, Unix seconds: stamped into new declarations
};

// Link cost per peer for parent selection (spec 03 §3, spec 02 §9.3). Only
// peers with a measurement belong here. Empty = cold start: every peer costs
// 1.0. Non-empty: peers missing from it cannot become parent.
using LinkCosts = std::map<NodeAddr, double>;

// What happened to one received TreeAnnounce (§2.1, in check order).
enum class TreeVerdict : uint8_t {
  ACCEPTED,       // stored (and parent re-evaluated)
  DECODE_ERROR,   // body malformed (see TreeReceiveResult::decodeError)
  UNKNOWN_PEER,   // sender is not an active peer (no addPeer)
  ADDR_MISMATCH,  // ancestry[0] is not the authenticated sender
  BAD_SIGNATURE,  // declaration signature does not verify with the peer's key
  BAD_ANCESTRY,   // semantic check failed (see TreeReceiveResult::ancestryError)
  STALE,          // sequence not above the stored one for that peer: ignored
};
constexpr size_t TREE_VERDICT_COUNT = 7;

// Stable lower-case name ("bad_signature"), for logs and stats.
const char* toString(TreeVerdict verdict);

// How our own declaration changed (the reference's TreeDecision).
enum class TreeDecision : uint8_t {
  NO_CHANGE,
  SWITCH,                // new parent (or demoted to root while switching)
  SELF_ROOT,             // became root: we are the smallest visible address
  LOOP_DROP,             // our parent's ancestry now contains us: parent dropped
  ANCESTRY_UPDATE,       // same parent, its ancestry changed: new declaration
  PARENT_LOST,           // our parent was removed: new parent or root
  PERIODIC_REBROADCAST,  // periodic tick: same declaration re-sent to all peers
};

// Stable lower-case name ("ancestry_update"), for logs.
const char* toString(TreeDecision decision);

// What the caller must do after a TreeState call.
struct TreeOutput {
  TreeDecision decision = TreeDecision::NO_CHANGE;
  // Send announceBody() (type 0x10) to each, in order. Already rate limited.
  std::vector<NodeAddr> announceTo;
  // Our parent changed or we became root: the bloom state must mark every
  // peer for a FilterAnnounce (BloomState::markAll), tree peers changed.
  bool parentChanged = false;
  // Our address path changed (sessions carrying our coordinates may care).
  bool coordsChanged = false;
  // Only from onTreeAnnounce(): the announcing peer became or stopped being
  // a tree peer (a child attached or left), or our path changed under the
  // same parent (ANCESTRY_UPDATE). Re-check which other peers' outgoing
  // filters changed: BloomState::markChanged(announcing peer, ...).
  bool bloomRecheck = false;
  // Coordinate cache (spec 03 §7): drop entries whose path contains our
  // address / whose root differs from root().
  bool invalidateViaSelf = false;
  bool invalidateOtherRoots = false;
  // Lookup origination backoff must be reset (spec 03 §3).
  bool resetLookupBackoff = false;
};

// Result of onTreeAnnounce(): the verdict to count and what to do.
struct TreeReceiveResult {
  TreeVerdict verdict = TreeVerdict::ACCEPTED;
  std::optional<TreeAnnounceError> decodeError;  // set for DECODE_ERROR
  std::optional<AncestryError> ancestryError;    // set for BAD_ANCESTRY
  TreeOutput out;
};

// Running totals, for stats and tests.
struct TreeCounters {
  std::array<uint64_t, TREE_VERDICT_COUNT> verdicts{};  // per TreeVerdict
  uint64_t announcesSent = 0;                           // entries put in announceTo
  uint64_t rateLimited = 0;                             // sends deferred to a later tick
  uint64_t parentSwitches = 0;                          // SWITCH and SELF_ROOT
  uint64_t parentLosses = 0;                            // our parent removed
  uint64_t loopsDetected = 0;                           // LOOP_DROP
  uint64_t ancestryChanged = 0;                         // ANCESTRY_UPDATE that changed our path
  uint64_t flapDampened = 0;                            // dampening episodes engaged
  uint64_t peersDistrusted = 0;  // peers set aside on parent loss (stale paths)
  uint64_t signFailures = 0;     // rng failed: declaration left unsigned, nothing sent

  uint64_t verdict(TreeVerdict v) const { return verdicts[static_cast<size_t>(v)]; }
};

class TreeState {
 public:
  // ctx, key, config and rng are borrowed for the state's lifetime (one
  // config is shared by the components of a node). Starts as its own root
  // with sequence 1 and timestamp now.unixSecs, signed.
  TreeState(const crypto::Secp256k1Context& ctx, const crypto::SecretKey& key,
            const TreeConfig& config, crypto::Rng& rng, TreeNow now);
  TreeState(const crypto::Secp256k1Context&, const crypto::SecretKey&, TreeConfig&&, crypto::Rng&,
            TreeNow) = delete;  // the config must outlive the state
  TreeState(const TreeState&) = delete;
  TreeState& operator=(const TreeState&) = delete;

  // A peer link came up: remember its x-only key and announce ourselves to
  // it. A peer already known is reset (its old declaration forgotten).
  TreeOutput addPeer(const NodeAddr& peer, std::span<const uint8_t, 32> xonlyKey, TreeNow now);
  // A peer link went down. If it was our parent, pick another parent or
  // become root (PARENT_LOST); the new declaration goes to every remaining
  // peer on the next tick().
  TreeOutput removePeer(const NodeAddr& peer, const LinkCosts& costs, TreeNow now);
  // A TreeAnnounce body (after 0x10) from an authenticated peer: §2.1
  // validation, store, echo, then the §3 classify ladder.
  TreeReceiveResult onTreeAnnounce(const NodeAddr& from, std::span<const uint8_t> body,
                                   const LinkCosts& costs, TreeNow now);
  // Timers: sends rate-limited announces now allowed; every
  // reevalIntervalSecs, with >= 2 peers, re-evaluates the parent and
  // re-announces to all peers (PERIODIC_REBROADCAST if nothing changed).
  TreeOutput tick(const LinkCosts& costs, TreeNow now);
  // Re-evaluates the parent now (after link costs changed): SWITCH,
  // SELF_ROOT or NO_CHANGE.
  TreeOutput reevaluate(const LinkCosts& costs, TreeNow now);

  // Our current signed TreeAnnounce body (without the 0x10 type byte).
  std::vector<uint8_t> announceBody() const;

  const NodeAddr& self() const { return self_; }
  const NodeAddr& root() const { return root_; }
  bool isRoot() const { return root_ == self_; }
  // Our parent; nullopt while we are root.
  std::optional<NodeAddr> parent() const;
  const ParentDeclaration& declaration() const { return decl_; }
  // False while our declaration is unsigned (the rng failed).
  bool declarationSigned() const { return signed_; }
  // Our coordinates, self → root.
  const Coordinates& coordinates() const { return coords_; }
  // Our ancestry with each node's sequence/timestamp, as announced.
  const std::vector<AncestryEntry>& ancestry() const { return ancestry_; }
  // Active peers (added and not removed), in address order.
  std::vector<NodeAddr> peers() const;
  // A peer's coordinates from its latest accepted announce; nullptr if none.
  const Coordinates* peerCoordinates(const NodeAddr& peer) const;
  const ParentDeclaration* peerDeclaration(const NodeAddr& peer) const;
  // Spec 03 §1.1: peer is our parent, or its declaration names us as parent.
  bool isTreePeer(const NodeAddr& peer) const;
  const TreeCounters& counters() const { return counters_; }

 private:
  struct Peer {
    std::array<uint8_t, 32> xonly{};
    std::optional<ParentDeclaration> declaration;  // latest accepted
    Coordinates coords;                            // its ancestry's addresses
    std::vector<AncestryEntry> ancestry;
    std::optional<uint64_t> lastAnnounceMs;
    bool announcePending = false;
    // Set aside at our parent's loss until heard again (see the header).
    bool distrusted = false;
    // Its declaration may take part in parent selection.
    bool candidate() const { return declaration && !distrusted; }
  };
  enum class Eval : uint8_t { NONE, MANDATORY, DISCRETIONARY };
  struct ParentEval {
    Eval kind = Eval::NONE;
    NodeAddr peer;
  };

  // Parent selection (tree-parent.cpp).
  ParentEval evaluateParent(const LinkCosts& costs) const;
  std::optional<NodeAddr> switchTarget(const LinkCosts& costs, uint64_t nowMs) const;
  bool shouldBeRoot() const;
  void setParent(const NodeAddr& parent, TreeNow now);
  void recomputeCoords();
  void becomeRoot(TreeNow now);
  void switchParent(const NodeAddr& parent, TreeNow now, TreeOutput& out);
  void selfRoot(TreeNow now, TreeOutput& out);
  void recoverParent(const LinkCosts& costs, TreeNow now);
  void distrustPeersAfterLoss(const NodeAddr& lost);
  void classify(const NodeAddr& from, const LinkCosts& costs, TreeNow now, TreeOutput& out);
  void classifyPeriodic(const LinkCosts& costs, TreeNow now, TreeOutput& out);

  // Announce bookkeeping (tree-state.cpp).
  std::optional<TreeVerdict> check(const NodeAddr& from, const TreeAnnounce& announce,
                                   TreeReceiveResult& result) const;
  bool sign();
  void announce(const NodeAddr& peer, uint64_t nowMs, TreeOutput& out);
  void announceAll(uint64_t nowMs, TreeOutput& out);
  void markAllPending();
  void flushPending(uint64_t nowMs, TreeOutput& out);

  const crypto::Secp256k1Context& ctx_;
  const crypto::SecretKey& key_;
  crypto::Rng& rng_;
  const TreeConfig& config_;
  NodeAddr self_;
  ParentDeclaration decl_;
  crypto::SchnorrSignature signature_{};
  bool signed_ = false;
  std::vector<AncestryEntry> ancestry_;
  Coordinates coords_;
  NodeAddr root_;
  std::map<NodeAddr, Peer> peers_;
  FlapDampener flap_;
  std::optional<uint64_t> lastReevalMs_;
  TreeCounters counters_;
};

}  // namespace fips::router::stp
