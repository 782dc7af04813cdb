// SPDX-License-Identifier: MIT
// CommandBridge: the control thread's end of control-bridge.capnp. Sends a
// ControlCommand to the data-plane thread over a SEQPACKET socketpair and
// resolves the caller's promise with the matching ControlReply. Runs on the
// control thread (KJ loop) of fips-router.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <capnp/common.h>
#include <kj/array.h>
#include <kj/async-io.h>

#include "control-bridge.capnp.h"

namespace fips::router::control {

// A command's outcome, copied out of the reply.
struct CommandOutcome {
  bool ok = false;
  std::string error;  // when !ok: one line
  bool refreshed = false;
  bool alreadyConnected = false;
  bool alreadyConnecting = false;  // connect: a dial was already under way
  bool dialCancelled = false;      // disconnect: a pending dial was cancelled
  std::string dialState;           // "handshake", "retry_backoff", "resolving" or ""
  std::string npub;                // connect, disconnect: the resolved canonical npub, or ""
  kj::Array<capnp::word> probe;    // a probe's ProbeReport as a flat message; empty otherwise
};

class CommandBridge {
 public:
  // At most this many commands wait for the data plane at once; more are
  // refused at once with an error outcome.
  static constexpr size_t MAX_IN_FLIGHT = 16;

  explicit CommandBridge(kj::Own<kj::AsyncIoStream> stream);

  // Reads replies until the data plane closes its end; then fails every
  // waiting command ("node shutting down") and resolves.
  kj::Promise<void> run();
  // Sends the command `fill` writes (its id is set here).
  kj::Promise<CommandOutcome> send(kj::Function<void(schema::ControlCommand::Builder)> fill);

 private:
  kj::Promise<void> readLoop();
  void onReply(size_t bytes);

  kj::Own<kj::AsyncIoStream> stream_;
  kj::Promise<void> writes_ = kj::READY_NOW;
  kj::Array<capnp::word> buffer_;
  uint64_t nextId_ = 1;
  std::map<uint64_t, kj::Own<kj::PromiseFulfiller<CommandOutcome>>> waiting_;
  bool closed_ = false;
};

}  // namespace fips::router::control
