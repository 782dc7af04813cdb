// SPDX-License-Identifier: MIT
// ControlServer (see control-server.h).
#include "router/control/service/control-server.h"

#include <spdlog/spdlog.h>

#include "router/control/jsonline/session.h"
#include "router/control/service/control-service.h"

namespace fips::router::control {

namespace {

constexpr auto ACCEPT_RETRY = 100 * kj::MILLISECONDS;

}  // namespace

ControlServer::ControlServer(kj::AsyncIoContext& io, kj::Own<kj::ConnectionReceiver> listener,
                             kj::Own<kj::AsyncIoStream> bridge, const SnapshotCell& snapshots,
                             const stats::StatsHistory& history, ControlLimits limits)
    : io_(io),
      snapshots_(snapshots),
      history_(history),
      listener_(kj::mv(listener)),
      bridge_(kj::mv(bridge)),
      probes_(bridge_, io.provider->getTimer()),
      bootstrap_(kj::heap<ControlService>(snapshots, history, bridge_)),
      limits_(limits),
      tasks_(*this) {}

ControlServer::~ControlServer() noexcept(false) {
  connections_.clear();
}

kj::Promise<void> ControlServer::run() {
  tasks_.add(acceptLoop());
  return bridge_.run();
}

kj::Promise<void> ControlServer::acceptLoop() {
  return listener_->accept().then(
      [this](kj::Own<kj::AsyncIoStream> stream) {
        onAccept(kj::mv(stream));
        return acceptLoop();
      },
      [this](kj::Exception&& e) {
        // EMFILE and friends: wait a little rather than spin.
        spdlog::warn("control: accept failed: {}", e.getDescription().cStr());
        return io_.provider->getTimer().afterDelay(ACCEPT_RETRY).then([this] {
          return acceptLoop();
        });
      });
}

// At the connection limit, the oldest connection that has not sent a byte
// makes room; if every one has spoken, the newcomer is refused.
bool ControlServer::makeRoom() {
  if (connections_.size() < limits_.maxConnections) return true;
  for (auto it = connections_.begin(); it != connections_.end(); ++it) {
    if (!it->second->stream->heardFrom()) {
      connections_.erase(it);
      return true;
    }
  }
  return false;
}

void ControlServer::onAccept(kj::Own<kj::AsyncIoStream> stream) {
  if (!makeRoom()) return;  // dropping the stream closes it
  const uint64_t id = nextId_++;
  auto conn = kj::heap<Connection>();
  conn->stream = kj::heap<TrackedStream>(kj::mv(stream));
  auto served = sniff(*conn);
  auto silence = watchSilence(*conn->stream, 0, limits_.silenceTimeout);
  conn->watch = served.exclusiveJoin(kj::mv(silence))
                    .then([this, id] { scheduleClose(id); },
                          [this, id](kj::Exception&&) { scheduleClose(id); })
                    .eagerlyEvaluate(nullptr);
  connections_.emplace(id, kj::mv(conn));
}

kj::Promise<void> ControlServer::serveRpc(Connection& conn) {
  capnp::ReaderOptions options;
  options.traversalLimitInWords = limits_.messageWords;
  options.nestingLimit = 16;
  conn.network = kj::heap<capnp::TwoPartyVatNetwork>(*conn.stream,
                                                     capnp::rpc::twoparty::Side::SERVER, options);
  conn.rpc = kj::heap(capnp::makeRpcServer(*conn.network, bootstrap_));
  return conn.network->onDisconnect();
}

kj::Promise<void> ControlServer::sniff(Connection& conn) {
  return conn.stream->tryRead(&conn.first, 1, 1).then([this, &conn](size_t n) -> kj::Promise<void> {
    if (n == 0) return kj::READY_NOW;
    if (startsJsonLine(conn.first)) {
      if (!limits_.jsonCompat) return refuseJsonLine(*conn.stream, io_.provider->getTimer());
      return serveJsonLine(*conn.stream, io_.provider->getTimer(), conn.first, snapshots_, history_,
                           bridge_, probes_);
    }
    conn.stream->unread(conn.first);
    return serveRpc(conn);
  });
}

kj::Promise<void> ControlServer::watchSilence(TrackedStream& stream, uint64_t seenReads,
                                              kj::Duration wait) {
  return io_.provider->getTimer().afterDelay(wait).then(
      [this, &stream, seenReads]() -> kj::Promise<void> {
        if (stream.reads() == seenReads) return kj::READY_NOW;
        return watchSilence(stream, stream.reads(), limits_.idleTimeout);
      });
}

// Closed from a later turn: the watch promise that asks for it must not be
// destroyed while it runs.
void ControlServer::scheduleClose(uint64_t id) {
  tasks_.add(kj::evalLater([this, id] { connections_.erase(id); }));
}

void ControlServer::taskFailed(kj::Exception&& exception) {
  spdlog::warn("control: {}", exception.getDescription().cStr());
}

}  // namespace fips::router::control
