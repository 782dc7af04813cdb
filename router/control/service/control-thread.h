// SPDX-License-Identifier: MIT
// ControlThread: the router's control thread (docs/design/privsep.md "Event
// loops"): its own KJ event loop serving the control socket with a
// ControlServer. It owns no routing state; it reads snapshots and sends
// commands over the bridge. Runs in fips-router; started before seccomp
// (the filter is then synchronised to it).
#pragma once

#include <thread>

#include "lib/unique-fd.h"
#include "router/control/service/control-limits.h"
#include "router/control/snapshot/snapshot-cell.h"
#include "router/stats/stats-history.h"

namespace fips::router::control {

class ControlThread {
 public:
  // Starts the thread and returns once its event loop and sockets are set
  // up (so that system calls made for the setup happen before seccomp).
  // listenFd: the listening control socket; bridgeFd: the control end of a
  // SEQPACKET socketpair; snapshots and history must outlive the thread. Throws std::runtime_error
  // if setup fails.
  ControlThread(UniqueFd listenFd, UniqueFd bridgeFd, const SnapshotCell& snapshots,
                const stats::StatsHistory& history, ControlLimits limits = {});
  // Joins the thread: close the data-plane end of the bridge first, which
  // makes the thread stop.
  ~ControlThread();
  ControlThread(const ControlThread&) = delete;
  ControlThread& operator=(const ControlThread&) = delete;

 private:
  std::thread thread_;
};

}  // namespace fips::router::control
