// SPDX-License-Identifier: MIT
// IdentityCache: which public key owns a NodeAddr, keyed by the 15-byte FIPS
// address prefix (NodeAddr bytes 0..14 = IPv6 address bytes 1..15), LRU with
// a fixed capacity (FIPS spec 03 §7; src/node/mod.rs register_identity).
// Filled from trusted sources (DNS answers we resolved, config peers,
// completed handshakes); read to verify LookupResponse proofs and to map TUN
// destinations. Runs in fips-router.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <span>

#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/node-addr.h"

namespace fips::router::routing {

using identity::NodeAddr;

// The first 15 bytes of a NodeAddr.
using FipsPrefix = std::array<uint8_t, 15>;

FipsPrefix fipsPrefix(const NodeAddr& addr);

// node.cache.identity_size (spec 03 §8).
struct IdentityCacheConfig {
  size_t capacity = 10000;  // entries; at least 1 is kept
};

struct CachedIdentity {
  NodeAddr addr;
  crypto::PublicKey key;
};

class IdentityCache {
 public:
  explicit IdentityCache(const IdentityCacheConfig& config = {});

  // Records key as the owner of NodeAddr::fromPublicKey(key), replacing any
  // entry with the same prefix and making it the most recently used. Evicts
  // the least recently used entry when full.
  void insert(const crypto::PublicKey& key);

  // The entry whose prefix matches, touching its LRU position; nullptr if none.
  const CachedIdentity* findByPrefix(const FipsPrefix& prefix);
  // findByPrefix(fipsPrefix(addr)), then only if the full NodeAddr matches.
  const CachedIdentity* find(const NodeAddr& addr);
  // True if an entry with addr's prefix exists (no LRU touch).
  bool contains(const NodeAddr& addr) const;

  size_t size() const { return index_.size(); }
  size_t capacity() const { return config_.capacity; }

  // Visits every entry, most recently used first.
  template <typename Fn>
  void forEach(Fn&& fn) const {
    for (const auto& entry : lru_) fn(entry);
  }

 private:
  using Lru = std::list<CachedIdentity>;

  IdentityCacheConfig config_;
  Lru lru_;  // front = most recently used
  std::map<FipsPrefix, Lru::iterator> index_;
};

}  // namespace fips::router::routing
