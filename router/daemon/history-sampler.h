// SPDX-License-Identifier: MIT
// HistorySampler: reads the node's totals and gauges once per tick for the
// stats history (router/stats; the reference's record_stats_history).
// Runs on the data-plane thread of fips-router; reads only the mesh core's
// own state.
//
// Sources in this build: mesh_size (union of the peers' inbound bloom
// filters and ourselves), tree_depth, peer_count, parent_switches,
// bytes/packets in (SessionDatagrams received) and out (forwarded plus
// originated), active_sessions. Not measured yet, recorded as gaps: the
// node's loss_rate and every per-peer metric (srtt_ms, loss_rate,
// bytes/packets in/out, ecn_ce), which need MMP and per-link counters.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "router/daemon/control-snapshot.h"
#include "router/link/link-io.h"
#include "router/mesh/mesh-node.h"
#include "router/stats/stats-history.h"

namespace fips::router {

class HistorySampler {
 public:
  // Records one tick of `mesh` into `history` at nowMs (monotonic ms).
  // facts: for the peers' configured aliases.
  void sample(const mesh::MeshNode& mesh, const NodeFacts& facts, uint64_t nowMs,
              stats::StatsHistory& history);

 private:
  std::vector<stats::PeerSample> peers_;  // reused from tick to tick
};

// The node-level sample of `mesh` whose active peers are `peers`.
stats::NodeSample nodeSample(const mesh::MeshNode& mesh, std::span<const link::PeerInfo> peers);

// Estimated nodes in the mesh: the OR-union of every peer's inbound filter
// plus ourselves (the reference's compute_mesh_size); nullopt when no peer
// has sent a filter or the union is too full to estimate.
std::optional<uint64_t> estimateMeshSize(const mesh::MeshNode& mesh,
                                         std::span<const link::PeerInfo> peers);

}  // namespace fips::router
