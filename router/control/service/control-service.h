// SPDX-License-Identifier: MIT
// ControlService: control.capnp's FipsControl, served to local clients on
// the router's control thread. Read methods copy from the latest snapshot
// (never touching the data path); connect and disconnect go through the
// CommandBridge; stats queries read the history rings. Runs on the control thread of fips-router;
// every argument comes from a local client and is checked by the data-plane thread.
#pragma once

#include "control.capnp.h"
#include "router/control/snapshot/command-bridge.h"
#include "router/control/snapshot/snapshot-cell.h"
#include "router/stats/stats-history.h"

namespace fips::router::control {

class ControlService final : public schema::FipsControl::Server {
 public:
  // Both are borrowed and must outlive the service.
  ControlService(const SnapshotCell& snapshots, const stats::StatsHistory& history,
                 CommandBridge& bridge);

 protected:
  kj::Promise<void> status(StatusContext context) override;
  kj::Promise<void> peers(PeersContext context) override;
  kj::Promise<void> links(LinksContext context) override;
  kj::Promise<void> transports(TransportsContext context) override;
  kj::Promise<void> metrics(MetricsContext context) override;
  kj::Promise<void> connect(ConnectContext context) override;
  kj::Promise<void> disconnect(DisconnectContext context) override;
  kj::Promise<void> tree(TreeContext context) override;
  kj::Promise<void> bloom(BloomContext context) override;
  kj::Promise<void> cache(CacheContext context) override;
  kj::Promise<void> statsList(StatsListContext context) override;
  kj::Promise<void> statsPeers(StatsPeersContext context) override;
  kj::Promise<void> statsHistory(StatsHistoryContext context) override;
  kj::Promise<void> statsAllHistory(StatsAllHistoryContext context) override;
  kj::Promise<void> sessions(SessionsContext context) override;
  kj::Promise<void> connections(ConnectionsContext context) override;
  kj::Promise<void> routing(RoutingContext context) override;
  kj::Promise<void> identityCache(IdentityCacheContext context) override;
  kj::Promise<void> acl(AclContext context) override;
  kj::Promise<void> probe(ProbeContext context) override;

 private:
  // Calls `answer` with the latest snapshot's root; throws when none exists.
  template <typename Answer>
  kj::Promise<void> fromSnapshot(Answer&& answer);

  const SnapshotCell& snapshots_;
  const stats::StatsHistory& history_;
  CommandBridge& bridge_;
};

}  // namespace fips::router::control
