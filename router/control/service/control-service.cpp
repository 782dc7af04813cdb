// SPDX-License-Identifier: MIT
// ControlService (see control-service.h).
#include "router/control/service/control-service.h"

#include <capnp/serialize.h>
#include <kj/debug.h>

#include "router/control/snapshot/stats-queries.h"

namespace fips::router::control {

namespace {

void setResult(schema::CommandResult::Builder out, const CommandOutcome& outcome) {
  if (outcome.ok) {
    out.setOk();
  } else {
    out.setError(outcome.error);
  }
  out.setRefreshed(outcome.refreshed);
  out.setAlreadyConnected(outcome.alreadyConnected);
  out.setAlreadyConnecting(outcome.alreadyConnecting);
  out.setDialCancelled(outcome.dialCancelled);
  out.setDialState(outcome.dialState);
  out.setNpub(outcome.npub);
}

}  // namespace

ControlService::ControlService(const SnapshotCell& snapshots, const stats::StatsHistory& history,
                               CommandBridge& bridge)
    : snapshots_(snapshots), history_(history), bridge_(bridge) {}

template <typename Answer>
kj::Promise<void> ControlService::fromSnapshot(Answer&& answer) {
  FlatSnapshot snapshot = snapshots_.latest();
  KJ_REQUIRE(snapshot != nullptr, "node starting: no snapshot yet");
  capnp::FlatArrayMessageReader reader(*snapshot);
  answer(reader.getRoot<schema::NodeSnapshot>());
  return kj::READY_NOW;
}

kj::Promise<void> ControlService::status(StatusContext context) {
  return fromSnapshot([&](auto root) { context.getResults().setStatus(root.getStatus()); });
}

kj::Promise<void> ControlService::peers(PeersContext context) {
  return fromSnapshot([&](auto root) { context.getResults().setPeers(root.getPeers()); });
}

kj::Promise<void> ControlService::links(LinksContext context) {
  return fromSnapshot([&](auto root) { context.getResults().setLinks(root.getLinks()); });
}

kj::Promise<void> ControlService::transports(TransportsContext context) {
  return fromSnapshot([&](auto root) { context.getResults().setTransports(root.getTransports()); });
}

kj::Promise<void> ControlService::metrics(MetricsContext context) {
  return fromSnapshot([&](auto root) { context.getResults().setCounters(root.getCounters()); });
}

kj::Promise<void> ControlService::tree(TreeContext context) {
  return fromSnapshot([&](auto root) { context.getResults().setTree(root.getTree()); });
}

kj::Promise<void> ControlService::bloom(BloomContext context) {
  return fromSnapshot([&](auto root) { context.getResults().setBloom(root.getBloom()); });
}

kj::Promise<void> ControlService::cache(CacheContext context) {
  return fromSnapshot([&](auto root) { context.getResults().setCache(root.getCache()); });
}

kj::Promise<void> ControlService::statsList(StatsListContext context) {
  fillStatsList(context.getResults().initList());
  return kj::READY_NOW;
}

kj::Promise<void> ControlService::statsPeers(StatsPeersContext context) {
  fillStatsPeers(history_, *snapshots_.names(), context.getResults());
  return kj::READY_NOW;
}

kj::Promise<void> ControlService::statsHistory(StatsHistoryContext context) {
  answerStatsHistory(history_, *snapshots_.names(), context.getParams(),
                     context.getResults().initResult());
  return kj::READY_NOW;
}

kj::Promise<void> ControlService::statsAllHistory(StatsAllHistoryContext context) {
  answerStatsAllHistory(history_, *snapshots_.names(), context.getParams(),
                        context.getResults().initResult());
  return kj::READY_NOW;
}

kj::Promise<void> ControlService::sessions(SessionsContext context) {
  return fromSnapshot([&](auto root) { context.getResults().setSessions(root.getSessions()); });
}

kj::Promise<void> ControlService::connections(ConnectionsContext context) {
  return fromSnapshot(
      [&](auto root) { context.getResults().setConnections(root.getConnections()); });
}

kj::Promise<void> ControlService::routing(RoutingContext context) {
  return fromSnapshot([&](auto root) { context.getResults().setRouting(root.getRouting()); });
}

kj::Promise<void> ControlService::identityCache(IdentityCacheContext context) {
  return fromSnapshot(
      [&](auto root) { context.getResults().setIdentityCache(root.getIdentityCache()); });
}

kj::Promise<void> ControlService::acl(AclContext context) {
  return fromSnapshot([&](auto root) { context.getResults().setAcl(root.getAcl()); });
}

kj::Promise<void> ControlService::probe(ProbeContext context) {
  auto params = context.getParams();
  auto promise = bridge_.send([params](schema::ControlCommand::Builder command) {
    auto probe = command.initProbe();
    probe.setNpub(params.getNpub());
    probe.setStartLookup(params.getStartLookup());
    probe.setOwnedSessionMs(params.getOwnedSessionMs());
    probe.setTeardown(params.getTeardown());
  });
  return promise.then([context](CommandOutcome outcome) mutable {
    auto results = context.getResults();
    setResult(results.initResult(), outcome);
    if (outcome.probe.size() == 0) return;
    capnp::FlatArrayMessageReader report(outcome.probe);
    results.setReport(report.getRoot<schema::ProbeReport>());
  });
}

kj::Promise<void> ControlService::connect(ConnectContext context) {
  auto params = context.getParams();
  auto promise = bridge_.send([params](schema::ControlCommand::Builder command) {
    auto connect = command.initConnect();
    connect.setNpub(params.getNpub());
    connect.setAddress(params.getAddress());
    connect.setTransport(params.getTransport());
  });
  return promise.then([context](CommandOutcome outcome) mutable {
    setResult(context.getResults().initResult(), outcome);
  });
}

kj::Promise<void> ControlService::disconnect(DisconnectContext context) {
  auto params = context.getParams();
  auto promise = bridge_.send([params](schema::ControlCommand::Builder command) {
    command.initDisconnect().setNpub(params.getNpub());
  });
  return promise.then([context](CommandOutcome outcome) mutable {
    setResult(context.getResults().initResult(), outcome);
  });
}

}  // namespace fips::router::control
