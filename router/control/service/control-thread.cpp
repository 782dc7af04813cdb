// SPDX-License-Identifier: MIT
// ControlThread (see control-thread.h).
#include "router/control/service/control-thread.h"

#include <future>
#include <stdexcept>
#include <sys/prctl.h>

#include <kj/async-unix.h>

#include <spdlog/spdlog.h>

#include "router/control/service/control-server.h"

namespace fips::router::control {

namespace {

void serve(UniqueFd listenFd, UniqueFd bridgeFd, const SnapshotCell& snapshots,
           const stats::StatsHistory& history, ControlLimits limits, std::promise<void>& ready) {
  ::prctl(PR_SET_NAME, "fips-control");
  kj::Maybe<kj::AsyncIoContext> io;
  kj::Maybe<ControlServer> server;
  try {
    io = kj::setupAsyncIo();
    auto& ctx = KJ_ASSERT_NONNULL(io);
    constexpr uint OWN =
        kj::LowLevelAsyncIoProvider::TAKE_OWNERSHIP | kj::LowLevelAsyncIoProvider::ALREADY_CLOEXEC;
    auto listener = ctx.lowLevelProvider->wrapListenSocketFd(
        listenFd.release(), OWN | kj::LowLevelAsyncIoProvider::ALREADY_NONBLOCK);
    auto bridge = ctx.lowLevelProvider->wrapSocketFd(bridgeFd.release(), OWN);
    server.emplace(ctx, kj::mv(listener), kj::mv(bridge), snapshots, history, limits);
  } catch (const kj::Exception& e) {
    ready.set_exception(std::make_exception_ptr(
        std::runtime_error(std::string("control thread: ") + e.getDescription().cStr())));
    return;
  }
  ready.set_value();
  try {
    KJ_ASSERT_NONNULL(server).run().wait(KJ_ASSERT_NONNULL(io).waitScope);
  } catch (const kj::Exception& e) {
    spdlog::error("control thread stopped: {}", e.getDescription().cStr());
  }
}

}  // namespace

ControlThread::ControlThread(UniqueFd listenFd, UniqueFd bridgeFd, const SnapshotCell& snapshots,
                             const stats::StatsHistory& history, ControlLimits limits) {
  std::promise<void> ready;
  std::future<void> started = ready.get_future();
  thread_ = std::thread([ready = std::move(ready), &snapshots, &history, limits,
                         listen = std::move(listenFd), bridge = std::move(bridgeFd)]() mutable {
    serve(std::move(listen), std::move(bridge), snapshots, history, limits, ready);
  });
  try {
    started.get();
  } catch (...) {
    thread_.join();
    throw;
  }
}

ControlThread::~ControlThread() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace fips::router::control
