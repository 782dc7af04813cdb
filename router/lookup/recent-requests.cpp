// SPDX-License-Identifier: MIT
// LookupRequest dedup / reverse-path table (FIPS spec 03 §5.3). Runs in
// fips-router.
#include "router/lookup/recent-requests.h"

#include <cstddef>

namespace fips::router::lookup {

RecentRequests::RecentRequests(uint64_t expiryMs, size_t capacity)
    : expiryMs_(expiryMs), capacity_(capacity) {}

// Entries are appended with a non-decreasing clock, so the expired ones are
// at the front. An entry is expired when strictly older than expiryMs.
void RecentRequests::purge(uint64_t nowMs) {
  while (head_ < order_.size()) {
    const auto [atMs, id] = order_[head_];
    if (nowMs <= atMs || nowMs - atMs <= expiryMs_) break;
    entries_.erase(id);
    ++head_;
  }
  // Drop the consumed front once it is half the vector, and the capacity
  // with it (amortised O(1), at most about twice the live entries held); an
  // emptied table gives its heap back.
  if (head_ == order_.size()) {
    order_ = {};
    head_ = 0;
  } else if (head_ > order_.size() / 2) {
    order_.erase(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(head_));
    order_.shrink_to_fit();
    head_ = 0;
  }
}

RecentRequests::Record RecentRequests::record(uint64_t id, const NodeAddr& from, uint64_t nowMs) {
  purge(nowMs);
  if (entries_.contains(id)) return Record::DUPLICATE;
  if (entries_.size() >= capacity_) return Record::FULL;
  entries_.emplace(id, Entry{.from = from, .atMs = nowMs, .responseForwarded = false});
  order_.emplace_back(nowMs, id);
  return Record::RECORDED;
}

std::optional<NodeAddr> RecentRequests::takeReversePath(uint64_t id) {
  const auto it = entries_.find(id);
  if (it == entries_.end() || it->second.responseForwarded) return std::nullopt;
  it->second.responseForwarded = true;
  return it->second.from;
}

}  // namespace fips::router::lookup
