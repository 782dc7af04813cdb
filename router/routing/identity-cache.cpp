// SPDX-License-Identifier: MIT
// Identity cache (FIPS spec 03 §7). Runs in fips-router.
#include "router/routing/identity-cache.h"

#include <algorithm>

namespace fips::router::routing {

FipsPrefix fipsPrefix(const NodeAddr& addr) {
  FipsPrefix prefix{};
  std::copy_n(addr.bytes().begin(), prefix.size(), prefix.begin());
  return prefix;
}

IdentityCache::IdentityCache(const IdentityCacheConfig& config) : config_(config) {
  config_.capacity = std::max<size_t>(config_.capacity, 1);
}

void IdentityCache::insert(const crypto::PublicKey& key) {
  const NodeAddr addr = NodeAddr::fromPublicKey(key);
  const FipsPrefix prefix = fipsPrefix(addr);
  if (const auto it = index_.find(prefix); it != index_.end()) {
    *it->second = CachedIdentity{.addr = addr, .key = key};
    lru_.splice(lru_.begin(), lru_, it->second);
    return;
  }
  if (index_.size() >= config_.capacity) {
    index_.erase(fipsPrefix(lru_.back().addr));
    lru_.pop_back();
  }
  lru_.push_front(CachedIdentity{.addr = addr, .key = key});
  index_.emplace(prefix, lru_.begin());
}

const CachedIdentity* IdentityCache::findByPrefix(const FipsPrefix& prefix) {
  const auto it = index_.find(prefix);
  if (it == index_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  return &*it->second;
}

const CachedIdentity* IdentityCache::find(const NodeAddr& addr) {
  const CachedIdentity* entry = findByPrefix(fipsPrefix(addr));
  return entry != nullptr && entry->addr == addr ? entry : nullptr;
}

bool IdentityCache::contains(const NodeAddr& addr) const {
  return index_.contains(fipsPrefix(addr));
}

}  // namespace fips::router::routing
