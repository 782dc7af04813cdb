// SPDX-License-Identifier: MIT
// Packets waiting for an FSP session per destination (FIPS spec 04 §2.4,
// node.session.pending_packets_per_dest / pending_max_destinations): at most
// 16 per destination (the oldest is dropped) and 256 destinations (a new one
// beyond that is refused). Runs in fips-router; the packets are local (TUN,
// native API), the destinations may be chosen by local applications.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "lib/identity/node-addr.h"

namespace fips::router::fsp {

// Hash of a NodeAddr for unordered containers (the address is already a
// SHA-256 prefix, so its first 8 bytes are uniform).
struct NodeAddrHash {
  size_t operator()(const identity::NodeAddr& addr) const;
};

// One queued Data message.
struct PendingPacket {
  uint16_t srcPort = 0;
  uint16_t dstPort = 0;
  std::vector<uint8_t> payload;
};

class PendingQueue {
 public:
  PendingQueue(size_t perDest, size_t maxDests) : perDest_(perDest), maxDests_(maxDests) {}

  // Queues a packet. Returns false (packet dropped) if dest is new and the
  // destination limit is reached; a full per-destination queue drops its
  // oldest packet (counted in droppedOldest()).
  bool push(const identity::NodeAddr& dest, PendingPacket packet);
  // Removes and returns dest's packets, oldest first.
  std::vector<PendingPacket> take(const identity::NodeAddr& dest);
  bool has(const identity::NodeAddr& dest) const { return queues_.contains(dest); }
  size_t destinations() const { return queues_.size(); }
  size_t queued(const identity::NodeAddr& dest) const;
  // Packets queued for every destination (O(destinations)).
  size_t total() const {
    size_t n = 0;
    for (const auto& [dest, queue] : queues_) n += queue.size();
    return n;
  }
  uint64_t droppedOldest() const { return droppedOldest_; }
  uint64_t refused() const { return refused_; }

 private:
  size_t perDest_;
  size_t maxDests_;
  uint64_t droppedOldest_ = 0;
  uint64_t refused_ = 0;
  std::unordered_map<identity::NodeAddr, std::deque<PendingPacket>, NodeAddrHash> queues_;
};

}  // namespace fips::router::fsp
