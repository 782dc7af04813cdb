// SPDX-License-Identifier: MIT
// ControlPlane (see control-plane.h).
#include "router/daemon/control-plane.h"

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

ControlPlane::ControlPlane(privsep::EventBase& base, UniqueFd listenFd,
                           CommandHandler handler, capnp::MessageBuilder& first,
                           control::ControlLimits limits)
    : handler_(std::move(handler)) {
  snapshots_.publish(first);
  auto [ours, theirs] = privsep::makeChannelPair();
  thread_ = std::make_unique<control::ControlThread>(std::move(listenFd), std::move(theirs),
                                                     snapshots_, history_, limits);
  bridge_ = std::make_unique<privsep::Channel>(
      base, std::move(ours), "router<-control", bridgeLimits(),
      [this](capnp::MessageReader& r, std::vector<UniqueFd>&) { onCommand(r); },
      [] { spdlog::error("control thread stopped: the control socket is not served"); });
}

ControlPlane::~ControlPlane() {
  bridge_.reset();
  thread_.reset();
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
