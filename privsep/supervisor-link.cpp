// SPDX-License-Identifier: MIT
// The child side of supervisor.capnp (see supervisor-link.h). Runs in every
// child of `fips`.
#include "privsep/supervisor-link.h"

#include <fcntl.h>
#include <unistd.h>

#include <capnp/message.h>

#include "privsep/fd-layout.h"
#include "privsep/log.h"

namespace fips::privsep {

namespace {

const char* requestName(schema::SupervisorRequest::Which which) {
  using W = schema::SupervisorRequest::Which;
  switch (which) {
    case W::CONFIGURE:
      return "configure";
    case W::SET_LOG_LEVEL:
      return "setLogLevel";
    case W::ATTACH_TRANSPORT:
      return "attachTransport";
    case W::SHUTDOWN:
      return "shutdown";
  }
  return "unknown";
}

}  // namespace

spdlog::level::level_enum fromSchemaLevel(schema::LogLevel level) {
  switch (level) {
    case schema::LogLevel::TRACE:
      return spdlog::level::trace;
    case schema::LogLevel::DEBUG:
      return spdlog::level::debug;
    case schema::LogLevel::INFO:
      return spdlog::level::info;
    case schema::LogLevel::WARN:
      return spdlog::level::warn;
    case schema::LogLevel::ERROR:
      return spdlog::level::err;
  }
  return spdlog::level::info;
}

bool fdIsOpen(int fd) {
  return ::fcntl(fd, F_GETFD) >= 0;
}

SupervisorLink::SupervisorLink(EventBase& base, schema::Role role, bool acceptsAttach,
                               ConfigureHandler onConfigure, AttachHandler onAttach,
                               ShutdownHandler onShutdown)
    : onConfigure_(std::move(onConfigure)),
      onAttach_(std::move(onAttach)),
      onShutdown_(std::move(onShutdown)),
      allow_(std::array<AllowRule<Which>, 4>{{
          {Which::CONFIGURE, stateBit(State::START), 1},
          {Which::SET_LOG_LEVEL, stateBit(State::RUNNING), 0},
          {Which::ATTACH_TRANSPORT, acceptsAttach ? stateBit(State::RUNNING) : 0u, 0},
          {Which::SHUTDOWN, stateBit(State::RUNNING), 1},
      }}) {
  ::fcntl(SUPERVISOR_CHANNEL_FD, F_SETFD, FD_CLOEXEC);
  // The router's slice carries every configured peer: room for a few
  // hundred of them.
  ChannelLimits limits;
  limits.maxBytes = 64 * 1024;
  limits.maxFds = acceptsAttach ? 1 : 0;
  limits.traversalWords = 16 * 1024;
  channel_ = std::make_unique<Channel>(
      base, UniqueFd(SUPERVISOR_CHANNEL_FD), "supervisor", limits,
      [this](capnp::MessageReader& r, std::vector<UniqueFd>& fds) { onMessage(r, fds); },
      [this] {
        spdlog::info("supervisor went away: stopping");
        onShutdown_();
      });
  capnp::MallocMessageBuilder msg;
  auto hello = msg.initRoot<schema::ChildEvent>().initHello();
  hello.setRole(role);
  hello.setPid(static_cast<uint32_t>(::getpid()));
  channel_->send(msg);
}

void SupervisorLink::ready() {
  capnp::MallocMessageBuilder msg;
  msg.initRoot<schema::ChildEvent>().setReady();
  channel_->send(msg);
}

void SupervisorLink::onMessage(capnp::MessageReader& reader, std::vector<UniqueFd>& fds) {
  auto req = reader.getRoot<schema::SupervisorRequest>();
  Which which = req.which();
  if (!allow_.admit(which, static_cast<uint32_t>(state_))) {
    fatal("supervisor: message '{}' not allowed in state {}", requestName(which),
          static_cast<int>(state_));
  }
  switch (which) {
    case Which::CONFIGURE:
      spdlog::default_logger()->set_level(fromSchemaLevel(req.getConfigure().getLogLevel()));
      state_ = State::RUNNING;
      if (!fds.empty()) configureFd_ = std::move(fds[0]);
      onConfigure_(req.getConfigure());
      break;
    case Which::SET_LOG_LEVEL:
      spdlog::default_logger()->set_level(fromSchemaLevel(req.getSetLogLevel()));
      break;
    case Which::ATTACH_TRANSPORT:
      if (fds.size() != 1) fatal("supervisor: attachTransport without its fd");
      onAttach_(req.getAttachTransport(), std::move(fds[0]));
      break;
    case Which::SHUTDOWN:
      spdlog::info("shutdown requested");
      onShutdown_();
      break;
  }
}

}  // namespace fips::privsep
