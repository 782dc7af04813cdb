// SPDX-License-Identifier: MIT
// Session index allocation and the O(1) dispatch table (transport id, our
// index) → peer, spec 02 §4. Runs in fips-router; lookups are keyed by
// receiver_idx values from untrusted frames.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "lib/crypto/rng.h"
#include "lib/identity/node-addr.h"

namespace fips::router::link {

// What an index is registered for: which frames may be dispatched through it.
enum class IndexRole : uint8_t {
  HANDSHAKE,  // our msg1 sender_idx of a first handshake: msg2 only
  REKEY,      // our msg1 sender_idx of a rekey in flight: msg2 only
  SESSION,    // a current, pending or draining session: established frames only
  CANDIDATE,  // an answered msg1 with a new epoch, not yet confirmed by a frame
};

struct IndexEntry {
  identity::NodeAddr peer;
  IndexRole role;
};

class IndexTable {
 public:
  // Draws a random u32 not in use (up to 100 draws, as the reference's
  // allocator) and reserves it; nullopt if the rng fails or every draw collided.
  std::optional<uint32_t> allocate(crypto::Rng& rng);
  // Registers an allocated index for dispatch on one transport.
  void bind(uint32_t transportId, uint32_t index, IndexEntry entry);
  // Unregisters and frees the index.
  void release(uint32_t transportId, uint32_t index);
  // The entry for a received receiver_idx, or nullptr.
  const IndexEntry* find(uint32_t transportId, uint32_t index) const;
  size_t inUse() const { return allocated_.size(); }

 private:
  static uint64_t key(uint32_t transportId, uint32_t index) {
    return (uint64_t{transportId} << 32U) | index;
  }
  std::unordered_set<uint32_t> allocated_;
  std::unordered_map<uint64_t, IndexEntry> bound_;
};

}  // namespace fips::router::link
