// SPDX-License-Identifier: MIT
// StatsHistory (see stats-history.h). Pipeline per tick, on the data-plane
// thread: node totals -> per-tick deltas (counters) or values (gauges) ->
// fast rings and minute accumulators; every DOWNSAMPLE_FACTOR ticks the
// accumulators fold into the slow rings; peers absent from a tick get a
// gap in every ring; peers absent for PEER_EVICTION_SECS are dropped.
// Readers on the control thread copy ring tails (SeriesRing::copyTail).
#include "router/stats/stats-history.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "lib/identity/nip19.h"

namespace fips::router::stats {

namespace {

constexpr float GAP = std::numeric_limits<float>::quiet_NaN();

// Up to DOWNSAMPLE_FACTOR fast samples on their way to one slow sample.
struct Accumulator {
  double sum = 0;
  uint32_t count = 0;  // samples that are not gaps
  double last = std::nan("");
  uint32_t total = 0;  // samples, gaps included

  void add(float value) {
    ++total;
    if (std::isnan(value)) return;
    sum += value;
    ++count;
    last = value;
  }

  // nullopt when nothing was added since the last reset.
  std::optional<float> reduce(Aggregation aggregation) const {
    if (total == 0) return std::nullopt;
    if (count == 0) return GAP;
    switch (aggregation) {
      case Aggregation::LAST:
        return static_cast<float>(last);
      case Aggregation::SUM:
        return static_cast<float>(sum);
      case Aggregation::MEAN:
        return static_cast<float>(sum / count);
    }
    return GAP;
  }
};

// Closest double to the float's shortest decimal form, so that 0.01f reads
// back as 0.01 rather than 0.009999999776.
double widen(float value) {
  if (std::isnan(value)) return std::nan("");
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  double out = value;
  if (ec == std::errc()) std::from_chars(text, end, out);
  return out;
}

}  // namespace

// One metric's two rings; accumulator and counter baseline are the
// writer's alone.
struct StatsHistory::Ring {
  explicit Ring(const MetricInfo& metric) : info(metric) {}

  void push(float value) {
    fast.push(value);
    accum.add(value);
  }

  void flushSlow() {
    if (auto value = accum.reduce(info.aggregation)) slow.push(*value);
    accum = Accumulator{};
  }

  // Per-tick delta of a peer's total: a gap on the first sample, when the
  // total went down (a new link) or when it is not measured.
  float peerDelta(std::optional<uint64_t> total) {
    const auto previous = prevTotal;
    prevTotal = total;
    if (!total || !previous || *total < *previous) return GAP;
    return static_cast<float>(*total - *previous);
  }

  // The node's totals never reset: the first delta is 0, as the reference.
  float nodeDelta(uint64_t total) {
    const uint64_t previous = prevTotal.value_or(total);
    prevTotal = total;
    return static_cast<float>(total > previous ? total - previous : 0);
  }

  Series read(uint64_t windowSecs, Granularity granularity) const {
    Series series{info.name, info.unit, seconds(granularity), {}};
    const size_t capacity =
        granularity == Granularity::FAST ? FAST_RING_CAPACITY : SLOW_RING_CAPACITY;
    const size_t want =
        static_cast<size_t>(std::min<uint64_t>(windowSecs / seconds(granularity), capacity));
    std::vector<float> samples(want);
    if (granularity == Granularity::FAST) {
      fast.copyTail(samples);
    } else {
      slow.copyTail(samples);
    }
    series.values.reserve(want);
    for (float v : samples) series.values.push_back(widen(v));
    return series;
  }

  const MetricInfo& info;
  SeriesRing<FAST_RING_CAPACITY> fast;
  SeriesRing<SLOW_RING_CAPACITY> slow;
  Accumulator accum;
  std::optional<uint64_t> prevTotal;
};

struct StatsHistory::PeerRings {
  PeerRings(const PeerSample& sample, uint64_t nowMs)
      : addr(sample.addr),
        npub(identity::encodeNpub(sample.key)),
        displayName(sample.alias != nullptr ? *sample.alias : identity::shortNpub(sample.key)),
        firstSeenMs(nowMs) {
    for (size_t i = 0; i < PEER_METRIC_COUNT; ++i) {
      rings[i] = std::make_unique<Ring>(info(static_cast<PeerMetric>(i)));
    }
  }

  Ring& ring(PeerMetric metric) { return *rings[static_cast<size_t>(metric)]; }

  void push(const PeerSample& s, uint64_t nowMs) {
    auto gauge = [](std::optional<double> v) { return v ? static_cast<float>(*v) : GAP; };
    ring(PeerMetric::SRTT_MS).push(gauge(s.srttMs));
    ring(PeerMetric::LOSS_RATE).push(gauge(s.lossRate));
    auto counter = [this](PeerMetric m, std::optional<uint64_t> total) {
      Ring& r = ring(m);
      r.push(r.peerDelta(total));
    };
    counter(PeerMetric::BYTES_IN, s.bytesInTotal);
    counter(PeerMetric::BYTES_OUT, s.bytesOutTotal);
    counter(PeerMetric::PACKETS_IN, s.packetsInTotal);
    counter(PeerMetric::PACKETS_OUT, s.packetsOutTotal);
    counter(PeerMetric::ECN_CE, s.ecnCeTotal);
    lastContactMs.store(nowMs, std::memory_order_relaxed);
    active.store(true, std::memory_order_relaxed);
  }

  // Absent this tick: a gap everywhere, and counters start over (so the
  // silence is not one huge delta).
  void pushGap() {
    for (auto& r : rings) {
      r->push(GAP);
      r->prevTotal.reset();
    }
    active.store(false, std::memory_order_relaxed);
  }

  const identity::NodeAddr addr;
  const std::string npub;
  const std::string displayName;
  const uint64_t firstSeenMs;
  std::atomic<uint64_t> lastContactMs{0};
  std::atomic<bool> active{false};
  uint64_t lastTick = 0;  // writer only: the tick that last saw the peer
  std::array<std::unique_ptr<Ring>, PEER_METRIC_COUNT> rings;
};

StatsHistory::StatsHistory() : directory_(std::make_shared<const Directory>()) {
  for (size_t i = 0; i < NODE_METRIC_COUNT; ++i) {
    node_[i] = std::make_unique<Ring>(info(static_cast<NodeMetric>(i)));
  }
}

StatsHistory::~StatsHistory() = default;

void StatsHistory::tick(uint64_t nowMs, const NodeSample& s, std::span<const PeerSample> peers) {
  auto ring = [this](NodeMetric m) -> Ring& { return *node_[static_cast<size_t>(m)]; };
  auto delta = [&](NodeMetric m, uint64_t total) { ring(m).push(ring(m).nodeDelta(total)); };
  ring(NodeMetric::MESH_SIZE).push(static_cast<float>(s.meshSize.value_or(0)));
  ring(NodeMetric::TREE_DEPTH).push(static_cast<float>(s.treeDepth));
  ring(NodeMetric::PEER_COUNT).push(static_cast<float>(s.peerCount));
  delta(NodeMetric::PARENT_SWITCHES, s.parentSwitchesTotal);
  delta(NodeMetric::BYTES_IN, s.bytesInTotal);
  delta(NodeMetric::BYTES_OUT, s.bytesOutTotal);
  delta(NodeMetric::PACKETS_IN, s.packetsInTotal);
  delta(NodeMetric::PACKETS_OUT, s.packetsOutTotal);
  ring(NodeMetric::LOSS_RATE).push(s.lossRate ? static_cast<float>(*s.lossRate) : GAP);
  ring(NodeMetric::ACTIVE_SESSIONS).push(static_cast<float>(s.activeSessions));

  const uint64_t tickNo = ticks_.load(std::memory_order_relaxed) + 1;
  bool changed = false;
  for (const PeerSample& sample : peers) {
    auto it = peers_.find(sample.addr);
    if (it == peers_.end()) {
      if (peers_.size() >= MAX_TRACKED_PEERS && !makeRoom()) continue;
      it = peers_.emplace(sample.addr, std::make_shared<PeerRings>(sample, nowMs)).first;
      changed = true;
    }
    it->second->push(sample, nowMs);
    it->second->lastTick = tickNo;
  }
  for (auto& [addr, rings] : peers_) {
    if (rings->lastTick != tickNo) rings->pushGap();
  }
  if (tickNo % DOWNSAMPLE_FACTOR == 0) {
    for (auto& r : node_) r->flushSlow();
    for (auto& [addr, rings] : peers_) {
      for (auto& r : rings->rings) r->flushSlow();
    }
  }
  const size_t before = peers_.size();
  evict(nowMs);
  if (changed || peers_.size() != before) publishDirectory();
  lastTickMs_.store(nowMs, std::memory_order_relaxed);
  ticks_.store(tickNo, std::memory_order_release);
}

// Drops the absent peer heard from longest ago; false when all are active.
bool StatsHistory::makeRoom() {
  auto oldest = peers_.end();
  for (auto it = peers_.begin(); it != peers_.end(); ++it) {
    if (it->second->active.load(std::memory_order_relaxed)) continue;
    if (oldest == peers_.end() || it->second->lastContactMs.load(std::memory_order_relaxed) <
                                      oldest->second->lastContactMs.load(std::memory_order_relaxed))
      oldest = it;
  }
  if (oldest == peers_.end()) return false;
  peers_.erase(oldest);
  return true;
}

void StatsHistory::evict(uint64_t nowMs) {
  std::erase_if(peers_, [nowMs](const auto& entry) {
    const uint64_t last = entry.second->lastContactMs.load(std::memory_order_relaxed);
    return nowMs - std::min(nowMs, last) >= PEER_EVICTION_SECS * 1000;
  });
}

void StatsHistory::publishDirectory() {
  auto next = std::make_shared<Directory>();
  next->reserve(peers_.size());
  for (const auto& [addr, rings] : peers_) next->push_back(rings);
  std::lock_guard<std::mutex> lock(directoryMutex_);
  directory_ = std::move(next);
}

std::shared_ptr<const StatsHistory::Directory> StatsHistory::directory() const {
  std::lock_guard<std::mutex> lock(directoryMutex_);
  return directory_;
}

Series StatsHistory::query(NodeMetric metric, uint64_t windowSecs, Granularity granularity) const {
  return node_[static_cast<size_t>(metric)]->read(windowSecs, granularity);
}

std::optional<Series> StatsHistory::peerQuery(const identity::NodeAddr& peer, PeerMetric metric,
                                              uint64_t windowSecs, Granularity granularity) const {
  const auto dir = directory();
  for (const auto& rings : *dir) {
    if (rings->addr == peer) {
      return rings->rings[static_cast<size_t>(metric)]->read(windowSecs, granularity);
    }
  }
  return std::nullopt;
}

bool StatsHistory::tracks(const identity::NodeAddr& peer) const {
  const auto dir = directory();
  return std::any_of(dir->begin(), dir->end(), [&](const auto& r) { return r->addr == peer; });
}

std::vector<TrackedPeer> StatsHistory::trackedPeers() const {
  const auto dir = directory();
  const uint64_t nowMs = lastTickMs_.load(std::memory_order_relaxed);
  auto secsAgo = [nowMs](uint64_t thenMs) { return (nowMs - std::min(nowMs, thenMs)) / 1000; };
  std::vector<TrackedPeer> out;
  out.reserve(dir->size());
  for (const auto& r : *dir) {
    out.push_back({r->addr, r->npub, r->displayName, r->active.load(std::memory_order_relaxed),
                   secsAgo(r->firstSeenMs),
                   secsAgo(r->lastContactMs.load(std::memory_order_relaxed))});
  }
  std::sort(out.begin(), out.end(), [](const TrackedPeer& a, const TrackedPeer& b) {
    if (a.active != b.active) return a.active;
    return a.displayName < b.displayName;
  });
  return out;
}

}  // namespace fips::router::stats
