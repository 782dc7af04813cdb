// SPDX-License-Identifier: MIT
// BloomState: sans-IO bloom filter propagation for one node (FIPS spec 03
// §4.4): each peer's inbound filter with its sequence, the outgoing filter
// per peer (split horizon over tree peers), one node-global send sequence,
// per-peer debounce, and the routing query "whose filter holds X". Runs in
// fips-router. Bodies handed to onFilterAnnounce() are untrusted: each is
// accepted or dropped with a typed verdict, never thrown.
//
// The caller (the mesh node) drives it:
//   link up                      → addPeer(peer)
//   link down                    → removePeer(peer)
//   FilterAnnounce               → onFilterAnnounce(from, body, isTreePeer)
//   TreeOutput.parentChanged     → markAll()
//   TreeOutput.bloomRecheck      → markChanged(announcing peer, isTreePeer)
//   every tick                   → tick(nowMs, isTreePeer): send each returned
//                                  body as a FilterAnnounce (0x20) to its peer
// isTreePeer is TreeState::isTreePeer (spec 03 §1.1). Nothing here does I/O
// or reads a clock.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "router/bloom/bloom-config.h"
#include "router/bloom/bloom-filter.h"
#include "router/bloom/filter-announce.h"

namespace fips::router::bloom {

// Answers whether a peer is a tree peer (our parent or our child) right now.
using TreePeerFn = std::function<bool(const NodeAddr&)>;

// What happened to one received FilterAnnounce (§4.4, in check order).
enum class BloomVerdict : uint8_t {
  ACCEPTED,      // stored; other peers' outgoing filters re-checked
  DECODE_ERROR,  // body malformed (see BloomReceiveResult::decodeError)
  UNKNOWN_PEER,  // sender is not an active peer (no addPeer)
  STALE,         // sequence not above the last accepted from that peer (0 never is)
  FPR_EXCEEDED,  // fill^k above max_inbound_fpr: dropped, previous filter kept
};
constexpr size_t BLOOM_VERDICT_COUNT = 5;

// Stable lower-case name ("fpr_exceeded"), for logs and stats.
const char* toString(BloomVerdict verdict);

struct BloomReceiveResult {
  BloomVerdict verdict = BloomVerdict::ACCEPTED;
  std::optional<FilterAnnounceError> decodeError;  // set for DECODE_ERROR
};

// One FilterAnnounce to send: body is without the 0x20 type byte.
struct FilterSend {
  NodeAddr peer;
  std::vector<uint8_t> body;
};

// Running totals, for stats and tests.
struct BloomCounters {
  std::array<uint64_t, BLOOM_VERDICT_COUNT> verdicts{};  // per BloomVerdict
  uint64_t sent = 0;                                     // FilterAnnounces returned by tick()
  uint64_t outgoingOverCap = 0;  // sent filters whose own FPR is above the cap
  uint64_t repairs = 0;          // repair() calls that marked a peer (not a reference stat)
  uint64_t confirmations = 0;    // repeats of an unchanged filter (not a reference stat)

  uint64_t verdict(BloomVerdict v) const { return verdicts[static_cast<size_t>(v)]; }
};

class BloomState {
 public:
  BloomState(const NodeAddr& self, const BloomConfig& config) : self_(self), config_(config) {}

  // A peer link came up: its last accepted sequence starts at 0 and it is
  // marked for our filter. A peer already known is reset.
  void addPeer(const NodeAddr& peer);
  // A peer link went down: its filter is forgotten and every remaining peer
  // is marked (their outgoing filters may have lost entries).
  void removePeer(const NodeAddr& peer);
  // A FilterAnnounce body (after 0x20) from an authenticated peer.
  BloomReceiveResult onFilterAnnounce(const NodeAddr& from, std::span<const uint8_t> body,
                                      const TreePeerFn& isTreePeer);
  // Marks every peer for a FilterAnnounce (tree parent changed, became root).
  void markAll();
  // Marks the peers other than except whose outgoing filter differs from
  // the one last sent to them (or that never got one).
  void markChanged(const NodeAddr& except, const TreePeerFn& isTreePeer);
  // Sends to every marked peer whose debounce (updateDebounceMs since the
  // last send to it) has passed; the others stay marked. A peer that got a
  // filter confirmDelayMs ago and nothing since gets it once more.
  std::vector<FilterSend> tick(uint64_t nowMs, const TreePeerFn& isTreePeer);

  // {self} ∪ OR(inbound filters of tree peers other than peer) (§4.4).
  BloomFilter outgoingFilter(const NodeAddr& peer, const TreePeerFn& isTreePeer) const;
  // The last accepted filter from peer; nullptr if none.
  const BloomFilter* inboundFilter(const NodeAddr& peer) const;
  // Routing query: the peers whose inbound filter contains addr (tested with
  // each sender's hash count), in address order.
  std::vector<NodeAddr> peersContaining(const NodeAddr& addr) const;
  bool peerContains(const NodeAddr& peer, const NodeAddr& addr) const;
  // Whether the filter last sent to peer holds addr (false if none was sent).
  bool advertised(const NodeAddr& peer, const NodeAddr& addr) const;
  // Evidence that peer holds an outdated filter from us (it routed a lookup
  // for a node our last filter to it does not hold: a FilterAnnounce was
  // lost): marks it for a re-send of its current outgoing filter, even if
  // unchanged. Debounced as any send; unknown peers are ignored.
  void repair(const NodeAddr& peer);
  // Peers with a send pending (marked), for tests and stats.
  bool pending(const NodeAddr& peer) const;
  // The last sequence we sent (node-global; 0 before the first send).
  uint64_t sequence() const { return sequence_; }
  const BloomCounters& counters() const { return counters_; }

 private:
  struct Peer {
    uint64_t lastSeq = 0;  // last accepted inbound sequence
    std::optional<BloomFilter> inbound;
    std::optional<BloomFilter> lastSent;
    std::optional<uint64_t> lastSentMs;
    bool pending = false;
    bool confirmDue = false;  // the last send gets its one repeat (confirmDelayMs)
  };

  std::optional<BloomVerdict> check(const NodeAddr& from, const FilterAnnounce& announce) const;
  // outgoingFilter() for every peer at once.
  std::map<NodeAddr, BloomFilter> outgoingFilters(const TreePeerFn& isTreePeer) const;

  NodeAddr self_;
  BloomConfig config_;
  std::map<NodeAddr, Peer> peers_;
  uint64_t sequence_ = 0;
  BloomCounters counters_;
};

}  // namespace fips::router::bloom
