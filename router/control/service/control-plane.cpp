// SPDX-License-Identifier: MIT
// ControlPlane (see control-plane.h).
#include "router/control/service/control-plane.h"

#include <chrono>

#include <capnp/message.h>

#include "privsep/log.h"

namespace fips::router {

namespace {

privsep::ChannelLimits bridgeLimits() {
  privsep::ChannelLimits limits;
  limits.maxBytes = 80 * 1024;  // above the control socket's 64 KiB message limit
  limits.maxFds = 0;
  limits.traversalWords = 16 * 1024;
  return limits;
}

}  // namespace

ControlPlane::ControlPlane(privsep::EventBase& base, const link::Clock& clock,
                           const TransportSet& transports, NamesFn names)
    : base_(base), clock_(clock), transports_(transports), names_(std::move(names)) {}

ControlPlane::~ControlPlane() {
  bridge_.reset();
  thread_.reset();
}

void ControlPlane::start(schema::RouterConfig::Reader slice, NodeFacts facts, bool tunReady,
                         UniqueFd listenFd, CommandHandler handler) {
  facts_ = std::move(facts);
  if (slice.getTunEnabled()) tunState_ = tunReady ? "active" : "configured";
  if (!listenFd) {
    if (slice.getControlUnavailable().size() == 0) {
      spdlog::info("control socket disabled (node.control.enabled: false)");
    } else {
      spdlog::warn(
          "running without a control socket ({}): fipsctl and fipstop cannot reach this node",
          slice.getControlUnavailable().cStr());
    }
    return;
  }
  refreshNames();
  capnp::MallocMessageBuilder first;
  buildSnapshot(snapshotInput(), first.initRoot<schema::NodeSnapshot>());
  snapshots_.publish(first);
  control::ControlLimits limits;
  limits.jsonCompat = slice.getControlJsonCompat();
  if (limits.jsonCompat) spdlog::info("control socket: JSON-line clients answered too");
  handler_ = std::move(handler);
  auto [ours, theirs] = privsep::makeChannelPair();
  thread_ = std::make_unique<control::ControlThread>(std::move(listenFd), std::move(theirs),
                                                     snapshots_, history_, limits);
  bridge_ = std::make_unique<privsep::Channel>(
      base_, std::move(ours), "router<-control", bridgeLimits(),
      [this](capnp::MessageReader& r, std::vector<UniqueFd>&) { onCommand(r); },
      [] { spdlog::error("control thread stopped: the control socket is not served"); });
  snapshots_.publishNames(shownHosts_);
}

void ControlPlane::refreshNames() {
  auto current = names_();
  if (current == shownHosts_) return;
  shownHosts_ = std::move(current);
  facts_.displayNames = shownHosts_->names();
  if (running()) snapshots_.publishNames(shownHosts_);
}

void ControlPlane::publish() {
  if (!running()) return;
  capnp::MallocMessageBuilder msg;
  buildSnapshot(snapshotInput(), msg.initRoot<schema::NodeSnapshot>());
  snapshots_.publish(msg);
}

void ControlPlane::onTick(uint64_t nowMs) {
  refreshNames();
  if (running() && mesh_ != nullptr) sampler_.sample(*mesh_, facts_, nowMs, history_);
  publish();
}

SnapshotInput ControlPlane::snapshotInput() const {
  SnapshotInput in;
  in.facts = &facts_;
  in.state = stopping_ ? "stopping" : "running";
  in.tunState = tunState_;
  in.nowMonoMs = clock_.nowMs();
  in.nowUnixMs = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::system_clock::now().time_since_epoch())
                                           .count());
  if (mesh_ != nullptr) {
    in.peers = mesh_->snapshot().peers;
    in.pendingHandshakes = mesh_->pendingHandshakes();
    in.linkCounters = mesh_->linkCounters();
    in.linkMessagesIgnored = mesh_->counters().unhandled;
    in.mesh = mesh_;
    in.routing = collectRouting(*mesh_);
  }
  in.transports = transports_.workers();
  in.transportCounters = transports_.counters();
  return in;
}

void ControlPlane::onCommand(capnp::MessageReader& reader) {
  auto command = reader.getRoot<schema::ControlCommand>();
  capnp::MallocMessageBuilder msg;
  auto reply = msg.initRoot<schema::ControlReply>();
  reply.setId(command.getId());
  handler_(command, reply);
  bridge_->send(msg);
}

}  // namespace fips::router
