// SPDX-License-Identifier: MIT
// ControlServer: accepts local clients on the control socket and serves
// FipsControl (control.capnp) to each over Cap'n Proto RPC, within the
// limits that schema's header states (message size, connection count,
// silence). With ControlLimits::jsonCompat, a client whose first byte
// starts a JSON line gets the reference's JSON-line protocol instead
// (json/session.h), under the same connection limits. A client that breaks
// the protocol loses its connection and nothing else. Runs on the control
// thread of fips-router.
#pragma once

#include <cstdint>
#include <map>

#include <capnp/rpc-twoparty.h>
#include <kj/async-io.h>

#include "router/control/probe/probe-runner.h"
#include "router/control/service/control-limits.h"
#include "router/control/service/tracked-stream.h"
#include "router/control/snapshot/command-bridge.h"
#include "router/control/snapshot/snapshot-cell.h"
#include "router/stats/stats-history.h"

namespace fips::router::control {

class ControlServer final : private kj::TaskSet::ErrorHandler {
 public:
  // listener: the listening control socket; bridge: the control thread's
  // end of control-bridge.capnp. `io`, `snapshots` and `history`
  // must outlive the server.
  ControlServer(kj::AsyncIoContext& io, kj::Own<kj::ConnectionReceiver> listener,
                kj::Own<kj::AsyncIoStream> bridge, const SnapshotCell& snapshots,
                const stats::StatsHistory& history, ControlLimits limits = {});
  ~ControlServer() noexcept(false);

  // Serves until the data plane closes the bridge (router shutdown).
  kj::Promise<void> run();

  size_t connectionCount() const { return connections_.size(); }

 private:
  struct Connection {
    kj::Own<TrackedStream> stream;
    kj::Own<capnp::TwoPartyVatNetwork> network;
    kj::Own<capnp::RpcSystem<capnp::rpc::twoparty::VatId>> rpc;
    kj::Promise<void> watch = nullptr;
    kj::byte first = 0;  // the sniffed first byte
  };

  kj::Promise<void> acceptLoop();
  void onAccept(kj::Own<kj::AsyncIoStream> stream);
  // Serves Cap'n Proto RPC on `conn` until it disconnects.
  kj::Promise<void> serveRpc(Connection& conn);
  // Reads the first byte and serves JSON-line or RPC by it (startsJsonLine);
  // with jsonCompat off, a JSON client is told how to turn it on, then closed.
  kj::Promise<void> sniff(Connection& conn);
  bool makeRoom();
  // Resolves when `stream` read nothing new for `wait` (first `seenReads`).
  kj::Promise<void> watchSilence(TrackedStream& stream, uint64_t seenReads, kj::Duration wait);
  void scheduleClose(uint64_t id);
  void taskFailed(kj::Exception&& exception) override;

  kj::AsyncIoContext& io_;
  const SnapshotCell& snapshots_;
  const stats::StatsHistory& history_;
  kj::Own<kj::ConnectionReceiver> listener_;
  CommandBridge bridge_;
  ProbeRunner probes_;  // the JSON-line socket's probe jobs
  capnp::Capability::Client bootstrap_;
  ControlLimits limits_;
  std::map<uint64_t, kj::Own<Connection>> connections_;  // by id: oldest first
  uint64_t nextId_ = 1;
  kj::TaskSet tasks_;
};

}  // namespace fips::router::control
