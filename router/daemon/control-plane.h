// SPDX-License-Identifier: MIT
// ControlPlane: the data-plane thread's side of the control service. Owns
// the published snapshot and stats history, the control thread (router/control) and the
// data-plane end of the command bridge (control-bridge.capnp, a privsep
// Channel on this thread's libevent loop). Runs in fips-router; built
// before seccomp so the thread's setup happens unfiltered.
#pragma once

#include <functional>
#include <memory>

#include "privsep/channel.h"
#include "privsep/libevent.h"

#include "control-bridge.capnp.h"
#include "router/control/control-thread.h"
#include "router/control/snapshot-cell.h"
#include "router/stats/stats-history.h"

namespace fips::router {

class ControlPlane {
 public:
  // Runs one command on this thread and fills its reply (result, and the
  // probe report for a probe).
  using CommandHandler =
      std::function<void(schema::ControlCommand::Reader, schema::ControlReply::Builder)>;

  // listenFd: the listening control socket from the supervisor. `first` is
  // published before the thread starts, so no query ever finds nothing.
  ControlPlane(privsep::EventBase& base, UniqueFd listenFd, CommandHandler handler,
               capnp::MessageBuilder& first, control::ControlLimits limits = {});
  // Closes the bridge (the control thread then stops) and joins the thread.
  ~ControlPlane();
  ControlPlane(const ControlPlane&) = delete;
  ControlPlane& operator=(const ControlPlane&) = delete;

  // Makes `snapshot` (a NodeSnapshot root) the one queries are answered from.
  void publish(capnp::MessageBuilder& snapshot) { snapshots_.publish(snapshot); }
  // Makes `names` (the router's host map, not null) the one the control
  // thread resolves peer names by (JSON probe_start, stats queries).
  void publishNames(std::shared_ptr<const dns::HostMap> names) {
    snapshots_.publishNames(std::move(names));
  }
  // The stats history the control thread answers from; this thread writes it.
  stats::StatsHistory& history() { return history_; }

 private:
  void onCommand(capnp::MessageReader& reader);

  CommandHandler handler_;
  control::SnapshotCell snapshots_;
  stats::StatsHistory history_;
  std::unique_ptr<control::ControlThread> thread_;
  std::unique_ptr<privsep::Channel> bridge_;
};

}  // namespace fips::router
