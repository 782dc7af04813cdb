// SPDX-License-Identifier: MIT
// HistorySampler (see history-sampler.h).
#include "router/control/snapshot/history-sampler.h"

#include <cmath>

namespace fips::router {

std::optional<uint64_t> estimateMeshSize(const mesh::MeshNode& mesh,
                                         std::span<const link::PeerInfo> peers) {
  std::optional<bloom::BloomFilter> merged;
  for (const auto& peer : peers) {
    const bloom::BloomFilter* filter = mesh.bloom().inboundFilter(peer.addr);
    if (filter == nullptr) continue;
    if (merged) {
      merged->merge(*filter);
    } else {
      merged = *filter;
    }
  }
  if (!merged) return std::nullopt;
  merged->insert(mesh.self());
  const auto count = merged->estimatedCount(mesh.config().bloom.maxInboundFpr);
  if (!count) return std::nullopt;
  return static_cast<uint64_t>(std::llround(*count));
}

std::optional<double> measuredLoss(const link::LinkMetrics& metrics) {
  if (metrics.receiverReportsRecv == 0) return std::nullopt;
  return metrics.lossRate;
}

stats::NodeSample nodeSample(const mesh::MeshNode& mesh, std::span<const link::PeerInfo> peers) {
  const auto& forwarding = mesh.forwarding();
  stats::NodeSample s;
  s.meshSize = estimateMeshSize(mesh, peers);
  s.treeDepth = static_cast<uint32_t>(mesh.tree().coordinates().depth());
  s.peerCount = peers.size();
  s.parentSwitchesTotal = mesh.tree().counters().parentSwitches;
  s.bytesInTotal = forwarding.receivedBytes;
  s.packetsInTotal = forwarding.receivedPackets;
  s.bytesOutTotal = forwarding.forwardedBytes + forwarding.originatedBytes;
  s.packetsOutTotal = forwarding.forwardedPackets + forwarding.originatedPackets;
  s.activeSessions = mesh.sessions().size();
  // The mean MMP loss of the peers that have a measurement; 0 without any
  // (the reference's node loss_rate).
  double loss = 0;
  size_t measured = 0;
  for (const auto& peer : peers) {
    if (const auto l = measuredLoss(peer.metrics)) {
      loss += *l;
      ++measured;
    }
  }
  s.lossRate = measured > 0 ? loss / static_cast<double>(measured) : 0.0;
  return s;
}

void HistorySampler::sample(const mesh::MeshNode& mesh, const NodeFacts& facts, uint64_t nowMs,
                            stats::StatsHistory& history) {
  const auto active = mesh.snapshot().peers;
  peers_.clear();
  for (const auto& peer : active) {
    stats::PeerSample& p = peers_.emplace_back(peer.addr, peer.key);
    const auto name = facts.displayNames.find(peer.addr);
    if (name != facts.displayNames.end()) p.alias = &name->second;
    const link::LinkMetrics& m = peer.metrics;
    p.srttMs = m.srttMs;
    p.lossRate = measuredLoss(m);
    p.bytesInTotal = m.bytesRecv;
    p.bytesOutTotal = m.bytesSent;
    p.packetsInTotal = m.packetsRecv;
    p.packetsOutTotal = m.packetsSent;
    p.ecnCeTotal = m.ecnCeCount;
  }
  history.tick(nowMs, nodeSample(mesh, active), peers_);
}

}  // namespace fips::router
