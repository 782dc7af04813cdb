// SPDX-License-Identifier: MIT
// CoordCache: destination NodeAddr → tree coordinates (+ the path MTU a
// LookupResponse reported), with a TTL refreshed on use and LRU eviction
// (FIPS spec 03 §7; src/cache/coord_cache.rs). Runs in fips-router; keys and
// coordinates often come from transit traffic (untrusted), so every operation
// is O(log n) in the number of entries and the size is capped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <optional>

#include "router/stp/coordinates.h"

namespace fips::router::routing {

using identity::NodeAddr;

// node.cache.coord_size / coord_ttl_secs (spec 03 §8).
struct CoordCacheConfig {
  size_t capacity = 50000;  // entries; at least 1 is kept
  uint64_t ttlMs = 300000;  // an entry expires this long after its last write or touch
};

// One cached destination.
struct CoordCacheEntry {
  stp::Coordinates coords;
  std::optional<uint16_t> pathMtu;  // from a LookupResponse (>= 256), bytes
  uint64_t createdMs = 0;
  uint64_t lastUsedMs = 0;
  uint64_t expiresMs = 0;  // expired when now > expiresMs
};

class CoordCache {
 public:
  explicit CoordCache(const CoordCacheConfig& config = {});

  // Stores coords for addr (a write refreshes TTL and LRU position). An
  // existing entry keeps its path MTU. A new entry evicts the least recently
  // used one when the cache is full (an expired entry, if any, is always the
  // least recently used since every write and touch sets the same TTL).
  void insert(const NodeAddr& addr, stp::Coordinates coords, uint64_t nowMs);
  // insert() and set the path MTU (bytes).
  void insertWithPathMtu(const NodeAddr& addr, stp::Coordinates coords, uint64_t nowMs,
                         uint16_t pathMtu);

  // The live entry for addr without touching it; nullptr if absent or expired.
  const CoordCacheEntry* get(const NodeAddr& addr, uint64_t nowMs) const;
  // The live coordinates for addr, refreshing its TTL and LRU position (used
  // by next-hop selection); an expired entry is removed and nullptr returned.
  const stp::Coordinates* getAndTouch(const NodeAddr& addr, uint64_t nowMs);

  // Removes addr's entry (PathBroken for addr); true if there was one.
  bool remove(const NodeAddr& addr);
  // Removes entries whose path contains addr (our parent switched: spec 03
  // §3, §7). Returns how many.
  size_t invalidateVia(const NodeAddr& addr);
  // Removes entries whose root is not root (we became root). Returns how many.
  size_t invalidateOtherRoots(const NodeAddr& root);
  // Removes expired entries. Returns how many.
  size_t purgeExpired(uint64_t nowMs);
  void clear();

  size_t size() const { return index_.size(); }
  size_t capacity() const { return config_.capacity; }
  uint64_t ttlMs() const { return config_.ttlMs; }

  // Visits every entry (expired ones included), most recently used first.
  template <typename Fn>
  void forEach(Fn&& fn) const {
    for (const auto& [addr, entry] : lru_) fn(addr, entry);
  }

 private:
  using Lru = std::list<std::pair<NodeAddr, CoordCacheEntry>>;

  CoordCacheEntry& upsert(const NodeAddr& addr, stp::Coordinates coords, uint64_t nowMs);
  template <typename Pred>
  size_t removeIf(Pred pred);

  CoordCacheConfig config_;
  Lru lru_;  // front = most recently used
  std::map<NodeAddr, Lru::iterator> index_;
};

}  // namespace fips::router::routing
