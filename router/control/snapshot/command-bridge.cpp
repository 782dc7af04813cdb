// SPDX-License-Identifier: MIT
// CommandBridge (see command-bridge.h). Replies come from the data-plane
// thread of the same process: a malformed one is a bug and throws (the
// control thread then stops; the node keeps forwarding).
#include "router/control/snapshot/command-bridge.h"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <kj/debug.h>

namespace fips::router::control {

namespace {

constexpr size_t REPLY_WORDS = 8192;  // 64 KiB: a probe report with two deep coordinate paths fits

CommandOutcome failed(std::string reason) {
  CommandOutcome out;
  out.error = std::move(reason);
  return out;
}

}  // namespace

CommandBridge::CommandBridge(kj::Own<kj::AsyncIoStream> stream)
    : stream_(kj::mv(stream)), buffer_(kj::heapArray<capnp::word>(REPLY_WORDS)) {}

kj::Promise<void> CommandBridge::run() {
  return readLoop();
}

kj::Promise<void> CommandBridge::readLoop() {
  return stream_->tryRead(buffer_.begin(), 1, buffer_.asBytes().size())
      .then([this](size_t bytes) -> kj::Promise<void> {
        if (bytes == 0) {
          closed_ = true;
          for (auto& [id, fulfiller] : waiting_) fulfiller->fulfill(failed("node shutting down"));
          waiting_.clear();
          return kj::READY_NOW;
        }
        onReply(bytes);
        return readLoop();
      });
}

void CommandBridge::onReply(size_t bytes) {
  KJ_REQUIRE(bytes % sizeof(capnp::word) == 0, "control bridge: reply of odd size", bytes);
  capnp::FlatArrayMessageReader reader(buffer_.slice(0, bytes / sizeof(capnp::word)));
  auto reply = reader.getRoot<schema::ControlReply>();
  auto it = waiting_.find(reply.getId());
  KJ_REQUIRE(it != waiting_.end(), "control bridge: reply to no command", reply.getId());
  auto result = reply.getResult();
  CommandOutcome outcome;
  outcome.ok = result.isOk();
  if (result.isError()) outcome.error = result.getError();
  outcome.refreshed = result.getRefreshed();
  outcome.alreadyConnected = result.getAlreadyConnected();
  outcome.alreadyConnecting = result.getAlreadyConnecting();
  outcome.dialCancelled = result.getDialCancelled();
  outcome.dialState = result.getDialState();
  outcome.npub = result.getNpub();
  if (reply.hasProbe()) {
    capnp::MallocMessageBuilder report;
    report.setRoot(reply.getProbe());
    outcome.probe = capnp::messageToFlatArray(report);
  }
  it->second->fulfill(kj::mv(outcome));
  waiting_.erase(it);
}

kj::Promise<CommandOutcome> CommandBridge::send(
    kj::Function<void(schema::ControlCommand::Builder)> fill) {
  if (closed_) return failed("node shutting down");
  if (waiting_.size() >= MAX_IN_FLIGHT) return failed("too many commands in flight");
  const uint64_t id = nextId_++;
  capnp::MallocMessageBuilder msg;
  auto command = msg.initRoot<schema::ControlCommand>();
  fill(command);
  command.setId(id);
  auto words = capnp::messageToFlatArray(msg);
  auto paf = kj::newPromiseAndFulfiller<CommandOutcome>();
  waiting_.emplace(id, kj::mv(paf.fulfiller));
  writes_ = writes_
                .then([this, words = kj::mv(words)]() mutable {
                  auto bytes = words.asBytes();
                  return stream_->write(bytes.begin(), bytes.size()).attach(kj::mv(words));
                })
                .eagerlyEvaluate(
                    [](kj::Exception&& e) { KJ_LOG(ERROR, "control bridge: write failed", e); });
  return kj::mv(paf.promise);
}

}  // namespace fips::router::control
