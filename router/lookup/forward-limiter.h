// SPDX-License-Identifier: MIT
// ForwardLimiter: the transit LookupRequest forward limit, at most one
// forward per (origin, target) per minimum interval on an injected
// millisecond clock (spec 03 §5.3, forward_min_interval_secs; the reference
// keys it by target alone, a departure: see docs/STATUS.md). Entries idle
// for a maximum age are forgotten (the reference's FORWARD_MAX_AGE_MS); there
// is no other bound, as in the reference.
//
// A flat open-addressing table of 40-byte slots (linear probing, at most
// three quarters full), so a request allocates nothing: when an insert would
// pass three quarters, the table is rebuilt without its aged entries at
// 2-4x what survives (a power of two, at least 16 slots), which keeps
// inserts amortised O(1). Keys come from
// untrusted traffic (a request's origin can be forged), so a slot is chosen
// by a keyed universal hash (vector multiply-shift, Dietzfelbinger 1996)
// whose key the caller derives from a secret: colliding keys cannot be
// picked without it. Runs in fips-router.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lib/identity/node-addr.h"

namespace fips::router::lookup {

class ForwardLimiter {
 public:
  // Eight multipliers (one per 32-bit word of origin ‖ target) and an offset.
  static constexpr size_t HASH_KEY_WORDS = 9;
  using HashKey = std::array<uint64_t, HASH_KEY_WORDS>;

  // minIntervalMs between allowed forwards per (origin, target); entries
  // idle for maxAgeMs (raised to minIntervalMs if below) are forgotten.
  // hashKey must be secret and random (any value is correct, only collisions
  // become predictable). Allocates nothing until the first allow().
  ForwardLimiter(uint64_t minIntervalMs, uint64_t maxAgeMs, const HashKey& hashKey);

  // True (and records nowMs) if (origin, target) had no allowed forward in
  // the last minIntervalMs; false otherwise (nothing recorded). A clock
  // that went back counts as no time passed.
  bool allow(const identity::NodeAddr& origin, const identity::NodeAddr& target, uint64_t nowMs);
  // Forgets entries idle for maxAgeMs (rebuilds the table).
  void purge(uint64_t nowMs);
  // Entries held, aged ones not yet purged included.
  size_t size() const { return size_; }
  // Slots of the table (0 before the first allow()).
  size_t capacity() const { return slots_.size(); }

 private:
  struct Slot {
    identity::NodeAddr origin;
    identity::NodeAddr target;
    uint64_t stampMs = 0;  // last allowed forward's ms + 1; 0 = empty slot
  };

  size_t home(const identity::NodeAddr& origin, const identity::NodeAddr& target) const;
  // Puts an entry known to be absent into its first free slot.
  void insertNew(const Slot& entry);
  // Re-inserts the entries not aged at nowMs into a new table sized for them.
  void rebuild(uint64_t nowMs);
  bool aged(const Slot& slot, uint64_t nowMs) const;

  uint64_t minIntervalMs_;
  uint64_t maxAgeMs_;
  HashKey hashKey_;
  unsigned shift_ = 64;  // 64 - log2(capacity)
  size_t size_ = 0;
  std::vector<Slot> slots_;
};

}  // namespace fips::router::lookup
