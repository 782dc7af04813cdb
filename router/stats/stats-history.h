// SPDX-License-Identifier: MIT
// StatsHistory: time series of node-level and per-peer metrics (the
// reference's src/node/stats_history.rs), each metric in a 1 s ring of an
// hour and a 1 min ring of a day. The data-plane thread of fips-router
// calls tick() once per tick with totals and gauges it read from the mesh
// core; the control thread answers queries at any time without blocking
// it (SeriesRing; the set of tracked peers is republished under a mutex
// only when it changes). Inputs are the router's own numbers.
//
// Memory: float samples, (3600 + 1440) x 4 bytes = 20,160 bytes per metric:
// 201,600 bytes for the node's 10 metrics, 141,120 bytes (about 138 KiB)
// per tracked peer for its 7, allocated once when the peer is first seen.
// At most MAX_TRACKED_PEERS peers are tracked (about 17 MiB).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/node-addr.h"
#include "router/stats/history-metric.h"
#include "router/stats/series-ring.h"

namespace fips::router::stats {

// Most peers tracked at once. A new peer past it replaces the absent peer
// heard from longest ago, or is not tracked when every one is active (a
// departure: the reference tracks every peer seen in the last 24 h).
constexpr size_t MAX_TRACKED_PEERS = 128;

// The node's totals and gauges at one tick. nullopt: no value this tick
// (a gap in the series).
struct NodeSample {
  std::optional<uint64_t> meshSize;  // estimated; nullopt records 0, as the reference
  uint32_t treeDepth = 0;
  uint64_t peerCount = 0;
  uint64_t parentSwitchesTotal = 0;
  uint64_t bytesInTotal = 0;  // monotonic totals; the series holds per-tick deltas
  uint64_t bytesOutTotal = 0;
  uint64_t packetsInTotal = 0;
  uint64_t packetsOutTotal = 0;
  std::optional<double> lossRate;  // fraction; nullopt: not measured
  uint64_t activeSessions = 0;
};

// One active peer at one tick. nullopt: not measured (a gap). Totals may
// go down when the peer's link is new (that tick is then a gap).
struct PeerSample {
  PeerSample(const identity::NodeAddr& peerAddr, const crypto::PublicKey& peerKey)
      : addr(peerAddr), key(peerKey) {}

  identity::NodeAddr addr;
  crypto::PublicKey key;
  const std::string* alias = nullptr;  // configured name, borrowed for the call
  std::optional<double> srttMs;
  std::optional<double> lossRate;
  std::optional<uint64_t> bytesInTotal;
  std::optional<uint64_t> bytesOutTotal;
  std::optional<uint64_t> packetsInTotal;
  std::optional<uint64_t> packetsOutTotal;
  std::optional<uint64_t> ecnCeTotal;
};

// A query's answer: samples oldest first, newest last, NaN for gaps.
struct Series {
  std::string_view metric;
  std::string_view unit;
  uint32_t granularitySeconds = 1;
  std::vector<double> values;
};

// A tracked peer (fipsctl stats peers).
struct TrackedPeer {
  identity::NodeAddr addr;
  std::string npub;
  std::string displayName;  // alias, else the short npub
  bool active = false;      // present at the last tick
  uint64_t firstSeenSecsAgo = 0;
  uint64_t lastContactSecsAgo = 0;
};

class StatsHistory {
 public:
  StatsHistory();
  ~StatsHistory();
  StatsHistory(const StatsHistory&) = delete;
  StatsHistory& operator=(const StatsHistory&) = delete;

  // Records one tick at nowMs (monotonic ms). Data-plane thread only;
  // allocates only when a peer is seen for the first time.
  void tick(uint64_t nowMs, const NodeSample& node, std::span<const PeerSample> peers);

  // The newest window/granularity samples of a node metric (at most the
  // ring's capacity), front-padded with NaN. Any thread.
  Series query(NodeMetric metric, uint64_t windowSecs, Granularity granularity) const;
  // The same for one peer; nullopt when the peer is not tracked.
  std::optional<Series> peerQuery(const identity::NodeAddr& peer, PeerMetric metric,
                                  uint64_t windowSecs, Granularity granularity) const;
  // Tracked peers: active first, then by display name. Any thread.
  std::vector<TrackedPeer> trackedPeers() const;
  bool tracks(const identity::NodeAddr& peer) const;
  // Ticks recorded so far. Any thread.
  uint64_t ticks() const { return ticks_.load(std::memory_order_acquire); }

 private:
  struct Ring;
  struct PeerRings;
  using Directory = std::vector<std::shared_ptr<const PeerRings>>;

  PeerRings& peerFor(const PeerSample& sample, uint64_t nowMs);
  bool makeRoom();
  void evict(uint64_t nowMs);
  void publishDirectory();
  std::shared_ptr<const Directory> directory() const;

  std::array<std::unique_ptr<Ring>, NODE_METRIC_COUNT> node_;
  std::map<identity::NodeAddr, std::shared_ptr<PeerRings>> peers_;  // data-plane thread only
  std::atomic<uint64_t> ticks_{0};
  std::atomic<uint64_t> lastTickMs_{0};
  mutable std::mutex directoryMutex_;
  std::shared_ptr<const Directory> directory_;
};

}  // namespace fips::router::stats
