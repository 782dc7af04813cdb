// SPDX-License-Identifier: MIT
// RecentRequests: the transit dedup table of LookupRequests, request_id →
// the peer it came from (the reverse path for the response), with expiry and
// a hard cap (FIPS spec 03 §5.3; src/proto/lookup/state.rs RecentRequest,
// core.rs classify_request/classify_response). Runs in fips-router; ids come
// from untrusted peers, so it is bounded (4096) and each operation is
// O(log n) amortised.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "lib/identity/node-addr.h"

namespace fips::router::lookup {

using identity::NodeAddr;

class RecentRequests {
 public:
  // Entries live expiryMs (> expiryMs old = expired); at most capacity entries.
  RecentRequests(uint64_t expiryMs, size_t capacity);

  enum class Record : uint8_t { RECORDED, DUPLICATE, FULL };

  // Purges expired entries, then records id → from unless id is known
  // (DUPLICATE) or the table is full (FULL).
  Record record(uint64_t id, const NodeAddr& from, uint64_t nowMs);

  // For a response with this id: the peer to forward it to, the first time
  // only. nullopt if the id is unknown (we are the originator) — see
  // isKnown() to tell that from an already forwarded response.
  std::optional<NodeAddr> takeReversePath(uint64_t id);
  bool isKnown(uint64_t id) const { return entries_.contains(id); }

  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    NodeAddr from;
    uint64_t atMs = 0;
    bool responseForwarded = false;
  };

  void purge(uint64_t nowMs);

  uint64_t expiryMs_;
  size_t capacity_;
  std::map<uint64_t, Entry> entries_;
  // (atMs, id), oldest first from order_[head_]: a vector consumed from the
  // front and compacted as it empties, so an idle node holds no heap (a
  // std::deque allocates 576 B when built).
  std::vector<std::pair<uint64_t, uint64_t>> order_;
  size_t head_ = 0;
};

}  // namespace fips::router::lookup
