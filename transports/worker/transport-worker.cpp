// SPDX-License-Identifier: MIT
// The transport worker skeleton (see transport-worker.h).
#include "transports/worker/transport-worker.h"

#include <capnp/message.h>

#include "privsep/fd-layout.h"
#include "privsep/log.h"
#include "privsep/privdrop.h"
#include "privsep/seccomp-filter.h"

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
      router_(std::make_unique<privsep::Channel>(
          base, privsep::UniqueFd(privsep::PEER_CHANNEL_FD), "worker<-router", routerLimits(),
          [this](capnp::MessageReader& r, std::vector<privsep::UniqueFd>&) {
            hooks_.send(r.getRoot<schema::TransportRequest>().getSend());
          },
          [this] {
            spdlog::info("router went away: stopping");
            base_.loopExit();
          })),
      supervisor_(
          base, schema::Role::TRANSPORT, false, [this](auto c) { onConfigure(c); },
          [](const std::string&, privsep::UniqueFd) {}, [this] { base_.loopExit(); }) {}

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
  privsep::loadSeccomp(privsep::SeccompProfile::TRANSPORT);
  spdlog::info("running as {} (uid {}), no capabilities, seccomp on", user->name, user->uid);
  router_->send(bound);
  hooks_.start();
  supervisor_.ready();
}

}  // namespace fips::transport
