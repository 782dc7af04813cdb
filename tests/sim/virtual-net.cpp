// SPDX-License-Identifier: MIT
// The simulator's virtual transport (see virtual-net.h).
#include "tests/sim/virtual-net.h"

#include <memory>

namespace fips::sim {

void VirtualNet::addLink(size_t a, size_t b, const LinkParams& params) {
  links_[key(a, b)] = Link{params, true, 0};
}

void VirtualNet::addTopology(const Topology& topology, const LinkParams& params) {
  for (const auto& [a, b] : topology.edges) addLink(a, b, params);
}

void VirtualNet::setLinkUp(size_t a, size_t b, bool up) {
  const auto it = links_.find(key(a, b));
  if (it == links_.end() || it->second.up == up) return;
  it->second.up = up;
  if (!up) ++it->second.generation;
}

bool VirtualNet::linkUp(size_t a, size_t b) const {
  const auto it = links_.find(key(a, b));
  return it != links_.end() && it->second.up;
}

void VirtualNet::setParams(size_t a, size_t b, const LinkParams& params) {
  const auto it = links_.find(key(a, b));
  if (it != links_.end()) it->second.params = params;
}

bool VirtualNet::passes(size_t a, size_t b) const {
  if (!linkUp(a, b)) return false;
  if (group_.empty()) return true;
  return a < group_.size() && b < group_.size() && group_[a] == group_[b];
}

Topology VirtualNet::usable(size_t nodes) const {
  Topology t{nodes, {}};
  for (const auto& [ends, link] : links_) {
    if (passes(ends.first, ends.second)) t.edges.push_back(ends);
  }
  return t;
}

void VirtualNet::mix(uint64_t value) {
  for (int i = 0; i < 8; ++i) {
    trace_ ^= (value >> (8 * i)) & 0xFFU;
    trace_ *= 0x100000001b3ULL;  // FNV-1a prime
  }
}

void VirtualNet::send(size_t from, size_t to, std::span<const uint8_t> datagram) {
  ++counters_.sent;
  counters_.bytes += datagram.size();
  mix(events_.nowMs());
  mix((uint64_t{from} << 32U) | to);
  for (uint8_t b : datagram) {
    trace_ ^= b;
    trace_ *= 0x100000001b3ULL;
  }
  const auto it = links_.find(key(from, to));
  if (it == links_.end() || !passes(from, to)) {
    ++counters_.cut;
    return;
  }
  const LinkParams& p = it->second.params;
  if (rnd_.chance(p.loss)) {
    ++counters_.lost;
    return;
  }
  const uint64_t delay = p.latencyMs + rnd_.below(uint64_t{p.jitterMs} + 1);
  const uint64_t generation = it->second.generation;
  auto bytes = std::make_shared<std::vector<uint8_t>>(datagram.begin(), datagram.end());
  events_.after(delay, [this, from, to, generation, bytes]() {
    const auto link = links_.find(key(from, to));
    if (link == links_.end() || link->second.generation != generation || !passes(from, to)) {
      ++counters_.cut;
      return;
    }
    ++counters_.delivered;
    if (receiver_) receiver_(to, from, *bytes);
  });
}

}  // namespace fips::sim
