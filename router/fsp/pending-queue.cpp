// SPDX-License-Identifier: MIT
// Per-destination pending packet queues (FIPS spec 04 §2.4). Runs in fips-router.
#include "router/fsp/pending-queue.h"

#include <cstring>

namespace fips::router::fsp {

size_t NodeAddrHash::operator()(const identity::NodeAddr& addr) const {
  uint64_t v = 0;
  std::memcpy(&v, addr.bytes().data(), sizeof(v));
  return static_cast<size_t>(v);
}

bool PendingQueue::push(const identity::NodeAddr& dest, PendingPacket packet) {
  auto it = queues_.find(dest);
  if (it == queues_.end()) {
    if (queues_.size() >= maxDests_ || perDest_ == 0) {
      ++refused_;
      return false;
    }
    it = queues_.emplace(dest, std::deque<PendingPacket>{}).first;
  }
  if (it->second.size() >= perDest_) {
    it->second.pop_front();
    ++droppedOldest_;
  }
  it->second.push_back(std::move(packet));
  return true;
}

std::vector<PendingPacket> PendingQueue::take(const identity::NodeAddr& dest) {
  std::vector<PendingPacket> out;
  const auto it = queues_.find(dest);
  if (it == queues_.end()) return out;
  out.assign(std::make_move_iterator(it->second.begin()),
             std::make_move_iterator(it->second.end()));
  queues_.erase(it);
  return out;
}

size_t PendingQueue::queued(const identity::NodeAddr& dest) const {
  const auto it = queues_.find(dest);
  return it == queues_.end() ? 0 : it->second.size();
}

}  // namespace fips::router::fsp
