// SPDX-License-Identifier: MIT
// HistorySampler: reads the node's totals and gauges once per tick for the
// stats history (router/stats; the reference's record_stats_history).
// Runs on the data-plane thread of fips-router; reads only the mesh core's
// own state.
//
// Sources: mesh_size (union of the peers' inbound bloom filters and
// ourselves), tree_depth, peer_count, parent_switches, bytes/packets in
// (SessionDatagrams received) and out (forwarded plus originated),
// loss_rate (mean MMP loss of the measured peers), active_sessions; per
// peer the link's MMP SRTT and loss (gaps until measured) and its frame
// and byte counters, and the CE marks the peer reported on our frames.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "router/control/snapshot/control-snapshot.h"
#include "router/link/link-io.h"
#include "router/mesh/mesh-node.h"
#include "router/stats/stats-history.h"

namespace fips::router {

class HistorySampler {
 public:
  // Records one tick of `mesh` into `history` at nowMs (monotonic ms).
  // facts: for the peers' display names (hosts file, configured aliases).
  void sample(const mesh::MeshNode& mesh, const NodeFacts& facts, uint64_t nowMs,
              stats::StatsHistory& history);

 private:
  std::vector<stats::PeerSample> peers_;  // reused from tick to tick
};

// The node-level sample of `mesh` whose active peers are `peers`.
stats::NodeSample nodeSample(const mesh::MeshNode& mesh, std::span<const link::PeerInfo> peers);

// A peer's MMP loss rate once a ReceiverReport has measured it.
std::optional<double> measuredLoss(const link::LinkMetrics& metrics);

// Estimated nodes in the mesh: the OR-union of every peer's inbound filter
// plus ourselves (the reference's compute_mesh_size); nullopt when no peer
// has sent a filter or the union is too full to estimate.
std::optional<uint64_t> estimateMeshSize(const mesh::MeshNode& mesh,
                                         std::span<const link::PeerInfo> peers);

}  // namespace fips::router
