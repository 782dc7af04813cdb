// SPDX-License-Identifier: MIT
// VirtualNet: the simulator's transport. It carries datagrams between the
// ends of a topology's links with per-link latency, jitter and loss drawn
// from one seeded generator, and models link flaps (a link down drops what
// crosses it) and partitions (nodes in different groups cannot reach each
// other). Every send is folded into a trace hash, so two runs with the same
// seed can be compared exactly. Test code only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "tests/sim/event-queue.h"
#include "tests/sim/sim-random.h"
#include "tests/sim/topology.h"

namespace fips::sim {

struct LinkParams {
  uint32_t latencyMs = 5;  // one way
  uint32_t jitterMs = 0;   // extra delay uniform in [0, jitterMs]; reorders
  double loss = 0.0;       // probability each datagram is lost
};

struct NetCounters {
  uint64_t sent = 0;
  uint64_t delivered = 0;
  uint64_t lost = 0;   // per-link loss
  uint64_t cut = 0;    // link down, partition, or no such link
  uint64_t bytes = 0;  // sent
};

class VirtualNet {
 public:
  // Called on delivery: (to, from, datagram); the span is valid for the call.
  using Receiver = std::function<void(size_t, size_t, std::span<const uint8_t>)>;

  VirtualNet(EventQueue& events, uint64_t seed) : events_(events), rnd_(seed) {}
  void setReceiver(Receiver receiver) { receiver_ = std::move(receiver); }

  void addLink(size_t a, size_t b, const LinkParams& params);
  void addTopology(const Topology& topology, const LinkParams& params);
  bool hasLink(size_t a, size_t b) const { return links_.contains(key(a, b)); }
  // Takes a link down or up (a flap); in-flight datagrams over it are lost.
  void setLinkUp(size_t a, size_t b, bool up);
  bool linkUp(size_t a, size_t b) const;
  void setParams(size_t a, size_t b, const LinkParams& params);
  // group[i] is node i's side; nodes in different groups cannot exchange
  // datagrams. An empty vector heals every partition.
  void setPartition(std::vector<uint32_t> group) { group_ = std::move(group); }
  // The links that can carry datagrams now (up, and not across a partition),
  // as a topology over nodes.
  Topology usable(size_t nodes) const;

  // Queues a datagram from a to b (dropped unless a link joins them).
  void send(size_t from, size_t to, std::span<const uint8_t> datagram);

  uint64_t traceHash() const { return trace_; }
  const NetCounters& counters() const { return counters_; }

 private:
  struct Link {
    LinkParams params;
    bool up = true;
    uint64_t generation = 0;  // bumped on each down: datagrams of older ones are lost
  };
  static std::pair<size_t, size_t> key(size_t a, size_t b) {
    return a < b ? std::pair{a, b} : std::pair{b, a};
  }
  bool passes(size_t a, size_t b) const;
  void mix(uint64_t value);

  EventQueue& events_;
  SimRandom rnd_;
  Receiver receiver_;
  std::map<std::pair<size_t, size_t>, Link> links_;
  std::vector<uint32_t> group_;
  uint64_t trace_ = 0xcbf29ce484222325ULL;  // FNV-1a offset basis
  NetCounters counters_;
};

}  // namespace fips::sim
