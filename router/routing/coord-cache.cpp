// SPDX-License-Identifier: MIT
// Coordinate cache (FIPS spec 03 §7). Runs in fips-router.
#include "router/routing/coord-cache.h"

#include <algorithm>

namespace fips::router::routing {

CoordCache::CoordCache(const CoordCacheConfig& config) : config_(config) {
  config_.capacity = std::max<size_t>(config_.capacity, 1);
}

CoordCacheEntry& CoordCache::upsert(const NodeAddr& addr, stp::Coordinates coords, uint64_t nowMs) {
  const uint64_t expires = nowMs + config_.ttlMs;
  if (const auto it = index_.find(addr); it != index_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    CoordCacheEntry& entry = it->second->second;
    entry.coords = std::move(coords);
    entry.lastUsedMs = nowMs;
    entry.expiresMs = expires;
    return entry;
  }
  if (index_.size() >= config_.capacity) {
    index_.erase(lru_.back().first);
    lru_.pop_back();
  }
  lru_.emplace_front(addr, CoordCacheEntry{.coords = std::move(coords),
                                           .pathMtu = std::nullopt,
                                           .createdMs = nowMs,
                                           .lastUsedMs = nowMs,
                                           .expiresMs = expires});
  index_.emplace(addr, lru_.begin());
  return lru_.front().second;
}

void CoordCache::insert(const NodeAddr& addr, stp::Coordinates coords, uint64_t nowMs) {
  upsert(addr, std::move(coords), nowMs);
}

void CoordCache::insertWithPathMtu(const NodeAddr& addr, stp::Coordinates coords, uint64_t nowMs,
                                   uint16_t pathMtu) {
  upsert(addr, std::move(coords), nowMs).pathMtu = pathMtu;
}

const CoordCacheEntry* CoordCache::get(const NodeAddr& addr, uint64_t nowMs) const {
  const auto it = index_.find(addr);
  if (it == index_.end() || nowMs > it->second->second.expiresMs) return nullptr;
  return &it->second->second;
}

const stp::Coordinates* CoordCache::getAndTouch(const NodeAddr& addr, uint64_t nowMs) {
  const auto it = index_.find(addr);
  if (it == index_.end()) return nullptr;
  CoordCacheEntry& entry = it->second->second;
  if (nowMs > entry.expiresMs) {
    lru_.erase(it->second);
    index_.erase(it);
    return nullptr;
  }
  entry.lastUsedMs = nowMs;
  entry.expiresMs = nowMs + config_.ttlMs;
  lru_.splice(lru_.begin(), lru_, it->second);
  return &entry.coords;
}

bool CoordCache::remove(const NodeAddr& addr) {
  const auto it = index_.find(addr);
  if (it == index_.end()) return false;
  lru_.erase(it->second);
  index_.erase(it);
  return true;
}

template <typename Pred>
size_t CoordCache::removeIf(Pred pred) {
  size_t removed = 0;
  for (auto it = lru_.begin(); it != lru_.end();) {
    if (pred(it->second)) {
      index_.erase(it->first);
      it = lru_.erase(it);
      ++removed;
    } else {
      ++it;
    }
  }
  return removed;
}

size_t CoordCache::invalidateVia(const NodeAddr& addr) {
  return removeIf([&](const CoordCacheEntry& e) { return e.coords.contains(addr); });
}

size_t CoordCache::invalidateOtherRoots(const NodeAddr& root) {
  return removeIf([&](const CoordCacheEntry& e) { return e.coords.root() != root; });
}

size_t CoordCache::purgeExpired(uint64_t nowMs) {
  return removeIf([&](const CoordCacheEntry& e) { return nowMs > e.expiresMs; });
}

void CoordCache::clear() {
  lru_.clear();
  index_.clear();
}

}  // namespace fips::router::routing
