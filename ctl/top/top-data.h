// SPDX-License-Identifier: MIT
// What fipstop knows about the daemon: an owned copy of its latest
// answers (one NodeSnapshot message per poll, so a long run does not grow
// a capnp arena), whether the last poll reached it, and the daemon's
// stats history that feeds the sparklines and the Graphs tab's modes.
// Runs in fipstop; the contents are the daemon's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ctl/top/answers.h"
#include "ctl/top/node-history.h"

namespace fips::ctl::top {

// A peer the daemon's stats history tracks (statsPeers).
struct GraphPeer {
  std::string npub;
  std::string name;
};

// One peer's series of one metric (MetricByPeer).
struct PeerSeries {
  std::string name;
  Series series;
};

// MetricByPeer asks one query per peer: at most this many peers.
inline constexpr size_t MAX_GRAPH_PEERS = 32;

struct TopData {
  std::unique_ptr<Answers> answers = std::make_unique<Answers>();
  // "" while connected, else why the daemon could not be reached (one line).
  std::string disconnected;
  bool everConnected = false;
  uint64_t nowUnixMs = 0;    // wall clock of the last poll
  uint64_t refreshSecs = 2;  // -r
  // The node's metrics (Node tab, Graphs Node mode) or, in PeerByMetric
  // mode, the per-peer metrics of historyPeer.
  NodeHistory history;
  std::string historyPeer;
  // Graphs' by-peer modes: the peers the stats history tracks, and in
  // MetricByPeer mode one metric's series of each (at most MAX_GRAPH_PEERS).
  std::vector<GraphPeer> graphPeers;
  std::vector<PeerSeries> byPeer;
  // The last disconnect's outcome, shown in the status bar ("" none).
  std::string notice;
};

}  // namespace fips::ctl::top
