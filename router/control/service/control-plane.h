// SPDX-License-Identifier: MIT
// ControlPlane: the data-plane thread's side of the operator plane. Owns
// what the control service says about this node (its facts and display
// names), the stats history and its sampler, the published snapshot, the
// control thread (router/control/service) and the data-plane end of the
// command bridge (control-bridge.capnp, a privsep Channel on this thread's
// libevent loop). Runs in fips-router; started before seccomp so the
// thread's setup happens unfiltered. Without a control socket it stays
// idle: no snapshot is built, no history sampled.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "privsep/channel.h"
#include "privsep/libevent.h"

#include "control-bridge.capnp.h"
#include "router/control/service/control-thread.h"
#include "router/control/snapshot/control-snapshot.h"
#include "router/control/snapshot/history-sampler.h"
#include "router/control/snapshot/snapshot-cell.h"
#include "router/dns/host-map.h"
#include "router/link/link-io.h"
#include "router/mesh/mesh-node.h"
#include "router/stats/stats-history.h"
#include "router/transports/transport-set.h"
#include "supervisor.capnp.h"

namespace fips::router {

class ControlPlane {
 public:
  // Runs one command on this thread and fills its reply (result, and the
  // probe report for a probe).
  using CommandHandler =
      std::function<void(schema::ControlCommand::Reader, schema::ControlReply::Builder)>;
  // The router's host map now in force (never null once names exist).
  using NamesFn = std::function<std::shared_ptr<const dns::HostMap>()>;

  // clock and transports are read for each snapshot and must outlive this.
  ControlPlane(privsep::EventBase& base, const link::Clock& clock, const TransportSet& transports,
               NamesFn names);
  // Closes the bridge (the control thread then stops) and joins the thread.
  ~ControlPlane();
  ControlPlane(const ControlPlane&) = delete;
  ControlPlane& operator=(const ControlPlane&) = delete;

  // Serves the control socket listenFd (from the supervisor; empty: logs
  // why the node runs without one and stays idle) for the node `facts`
  // describe. The first snapshot is published before the thread starts,
  // so no query ever finds nothing. tunReady: the TUN is already up.
  void start(schema::RouterConfig::Reader slice, NodeFacts facts, bool tunReady, UniqueFd listenFd,
             CommandHandler handler);
  // True once the control thread runs.
  bool running() const { return thread_ != nullptr; }
  // The mesh node core the snapshots and the history read (it must outlive this).
  void attachMesh(const mesh::MeshNode& mesh) { mesh_ = &mesh; }
  // "disabled", "configured", "active", "failed" (shown in the snapshot).
  void setTunState(std::string state) { tunState_ = std::move(state); }
  // The node is stopping (shown in the snapshot).
  void setStopping() { stopping_ = true; }

  // Takes the host map now in force when it changed (display names, the
  // control thread's names).
  void refreshNames();
  // The map as refreshNames left it (not null once names were refreshed).
  const dns::HostMap& hosts() const { return *shownHosts_; }
  const NodeFacts& facts() const { return facts_; }
  // Builds a snapshot and makes it the one queries are answered from.
  void publish();
  // One tick at nowMs (monotonic ms): names, a history sample, a snapshot.
  void onTick(uint64_t nowMs);

 private:
  SnapshotInput snapshotInput() const;
  void onCommand(capnp::MessageReader& reader);

  privsep::EventBase& base_;
  const link::Clock& clock_;
  const TransportSet& transports_;
  NamesFn names_;
  const mesh::MeshNode* mesh_ = nullptr;
  NodeFacts facts_;
  std::shared_ptr<const dns::HostMap> shownHosts_;  // the map facts_ and the thread have
  std::string tunState_ = "disabled";
  bool stopping_ = false;
  HistorySampler sampler_;
  CommandHandler handler_;
  control::SnapshotCell snapshots_;
  stats::StatsHistory history_;
  std::unique_ptr<control::ControlThread> thread_;
  std::unique_ptr<privsep::Channel> bridge_;
};

}  // namespace fips::router
