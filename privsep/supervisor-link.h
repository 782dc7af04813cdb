// SPDX-License-Identifier: MIT
// The child side of supervisor.capnp, shared by fips-router, fips-tun-helper
// and fips-transport-*: says hello, waits for its config slice, and obeys
// setLogLevel/shutdown. The supervisor is more privileged than the child and
// trusted; its messages are still checked against the state table.
#pragma once

#include <functional>
#include <memory>

#include <spdlog/spdlog.h>

#include "privsep/allow-table.h"
#include "privsep/channel.h"
#include "privsep/libevent.h"

#include "supervisor.capnp.h"

namespace fips::privsep {

// A child's channel to the supervisor, on fd 3.
class SupervisorLink {
 public:
  // Called once with the configure request; the child applies it, drops
  // privileges, and then calls ready(). The SupervisorLink's channel may be
  // asked to wipe the message (wipeReceivedMessage) when it holds secrets.
  using ConfigureHandler = std::function<void(schema::SupervisorRequest::Configure::Reader)>;
  // Called for attachTransport (router only) with the router's end.
  using AttachHandler = std::function<void(const std::string& name, UniqueFd fd)>;
  // Called on shutdown, or when the supervisor's end closes.
  using ShutdownHandler = std::function<void()>;

  // Takes fd 3, sends hello{role, pid}. `acceptsAttach` is true for the
  // router only: attachTransport is fatal in every other child.
  SupervisorLink(EventBase& base, schema::Role role, bool acceptsAttach,
                 ConfigureHandler onConfigure, AttachHandler onAttach, ShutdownHandler onShutdown);

  // Tells the supervisor the configuration is applied.
  void ready();
  Channel& channel() { return *channel_; }
  // The fd that came with configure (the router's control socket), or an
  // empty UniqueFd; valid to call from the ConfigureHandler on.
  UniqueFd takeConfigureFd() { return std::move(configureFd_); }

 private:
  enum class State : uint32_t { START, RUNNING };
  using Which = schema::SupervisorRequest::Which;

  void onMessage(capnp::MessageReader& reader, std::vector<UniqueFd>& fds);

  ConfigureHandler onConfigure_;
  AttachHandler onAttach_;
  ShutdownHandler onShutdown_;
  State state_ = State::START;
  AllowTable<Which, 4> allow_;
  std::unique_ptr<Channel> channel_;
  UniqueFd configureFd_;
};

// Maps a schema LogLevel to spdlog's.
spdlog::level::level_enum fromSchemaLevel(schema::LogLevel level);

// True if `fd` is an open descriptor (the optional peer channel on fd 4).
bool fdIsOpen(int fd);

}  // namespace fips::privsep
