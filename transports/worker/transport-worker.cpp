// SPDX-License-Identifier: MIT
// The transport worker skeleton (see transport-worker.h).
#include "transports/worker/transport-worker.h"

#include <capnp/message.h>

#include "privsep/fd-layout.h"
#include "privsep/log.h"
#include "privsep/privdrop.h"

namespace fips::transport {

namespace {

privsep::ChannelLimits routerLimits() {
  privsep::ChannelLimits limits;
  limits.maxBytes = 256 * 1024;
  limits.maxFds = 0;
  limits.traversalWords = 64 * 1024;
  return limits;
}

}  // namespace

TransportWorker::TransportWorker(privsep::EventBase& base, TransportHooks hooks)
    : base_(base),
      hooks_(std::move(hooks)),
      allow_(std::array<privsep::AllowRule<Which>, 2>{{
          {Which::SEND, privsep::stateBit(State::BOUND), 0},
          {Which::RESOLVE, hooks_.resolve ? privsep::stateBit(State::BOUND) : 0u, 0},
      }}),
      router_(std::make_unique<privsep::Channel>(
          base, UniqueFd(privsep::PEER_CHANNEL_FD), "worker<-router", routerLimits(),
          [this](capnp::MessageReader& r, std::vector<UniqueFd>&) { onRequest(r); },
          [this] {
            spdlog::info("router went away: stopping");
            base_.loopExit();
          })),
      supervisor_(
          base, schema::Role::TRANSPORT, false, [this](auto c) { onConfigure(c); },
          [](const std::string&, UniqueFd) {}, [this] { base_.loopExit(); }) {}

void TransportWorker::onRequest(capnp::MessageReader& reader) {
  auto request = reader.getRoot<schema::TransportRequest>();
  if (!allow_.admit(request.which(), static_cast<uint32_t>(state_))) {
    privsep::fatal("worker<-router: request {} not allowed in state {}",
                   static_cast<int>(request.which()), static_cast<int>(state_));
  }
  switch (request.which()) {
    case Which::SEND:
      hooks_.send(request.getSend());
      break;
    case Which::RESOLVE:
      hooks_.resolve(request.getResolve());
      break;
  }
}

// Acquire → drop → sandbox → ready.
void TransportWorker::onConfigure(schema::SupervisorRequest::Configure::Reader configure) {
  if (!configure.isTransport()) privsep::fatal("supervisor: configure is not a transport slice");
  auto slice = configure.getTransport();
  capnp::MallocMessageBuilder bound;
  auto event = bound.initRoot<schema::TransportEvent>().initBound();
  event.setType(slice.getType());
  try {
    hooks_.open(slice, event);
  } catch (const std::exception& e) {
    privsep::fatal("{}", e.what());
  }
  bool fellBack = false;
  auto user = privsep::resolveUser(slice.getUser(), &fellBack);
  if (!user) privsep::fatal("user '{}' does not exist (nor 'nobody')", slice.getUser().cStr());
  privsep::dropToUser(*user);
  privsep::loadSeccomp(hooks_.resolve && hooks_.seccomp == privsep::SeccompProfile::TRANSPORT
                           ? privsep::SeccompProfile::TRANSPORT_RESOLVER
                           : hooks_.seccomp);
  spdlog::info("running as {} (uid {}), no capabilities, seccomp on", user->name, user->uid);
  router_->send(bound);
  state_ = State::BOUND;
  hooks_.start();
  supervisor_.ready();
}

}  // namespace fips::transport
