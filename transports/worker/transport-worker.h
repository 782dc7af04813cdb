// SPDX-License-Identifier: MIT
// The skeleton every transport worker shares: supervisor link (hello,
// configure, shutdown), the channel to the router, and the acquire → drop →
// sandbox → ready sequence. Runs in fips-transport-* (unprivileged after
// setup). The router is more trusted than the worker; the worker still
// checks what it receives against its state table (send, and resolve only
// in a worker that resolves names, both after bound).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "privsep/allow-table.h"
#include "privsep/channel.h"
#include "privsep/libevent.h"
#include "privsep/seccomp-filter.h"
#include "privsep/supervisor-link.h"

#include "transport.capnp.h"

namespace fips::transport {

// What a concrete transport plugs into the skeleton.
struct TransportHooks {
  // Acquire: open and bind sockets for the slice, fill `bound` with what was
  // bound. Runs with the privileges the worker was started with. Throws
  // std::runtime_error with a one-line reason on failure.
  std::function<void(schema::TransportConfig::Reader slice,
                     schema::TransportEvent::Bound::Builder bound)>
      open;
  // Called once after privileges are dropped and seccomp is loaded.
  std::function<void()> start;
  // Called for each batch the router asks to send.
  std::function<void(capnp::List<schema::Datagram>::Reader batch)> send;
  // Called for each resolve request; empty in a worker that does not
  // resolve names (a resolve request is then fatal). Setting it widens the
  // worker's seccomp list by what getaddrinfo needs.
  std::function<void(schema::TransportRequest::Resolve::Reader request)> resolve;
  // The seccomp list once set up: TRANSPORT (or TRANSPORT_RESOLVER with
  // `resolve`) for a datagram worker, TRANSPORT_STREAM for a worker that
  // dials and accepts connections after the sandbox is on.
  privsep::SeccompProfile seccomp = privsep::SeccompProfile::TRANSPORT;
};

// Runs the skeleton on `base`. Not copyable or movable.
class TransportWorker {
 public:
  TransportWorker(privsep::EventBase& base, TransportHooks hooks);
  TransportWorker(const TransportWorker&) = delete;
  TransportWorker& operator=(const TransportWorker&) = delete;

  // The channel to the router (fd 4), for sending datagram batches and stats.
  privsep::Channel& router() { return *router_; }

 private:
  enum class State : uint32_t { CONFIGURING, BOUND };
  using Which = schema::TransportRequest::Which;

  void onConfigure(schema::SupervisorRequest::Configure::Reader configure);
  void onRequest(capnp::MessageReader& reader);

  privsep::EventBase& base_;
  TransportHooks hooks_;
  State state_ = State::CONFIGURING;
  privsep::AllowTable<Which, 2> allow_;
  std::unique_ptr<privsep::Channel> router_;
  privsep::SupervisorLink supervisor_;
};

}  // namespace fips::transport
