// SPDX-License-Identifier: MIT
// The fips-router process around the protocol core: its channels to the
// supervisor, the tun-helper and the transport workers. Runs in fips-router
// (unprivileged, seccomp). Transport workers face the network and are less
// trusted than the router: their messages are checked against a state
// table, and a violation is fatal (a bug or a compromise).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "privsep/allow-table.h"
#include "privsep/channel.h"
#include "privsep/supervisor-link.h"
#include "privsep/libevent.h"
#include "router/crypto/secp256k1-context.h"
#include "router/identity/secret-key.h"
#include "transport.capnp.h"
#include "tun.capnp.h"

namespace fips::router {

// Counters of the router daemon, for the control interface.
struct RouterCounters {
  uint64_t datagramsIn = 0;         // from all transport workers
  uint64_t droppedNoLinkLayer = 0;  // dropped: the FMP link layer is issue #4
  uint64_t kernelDrops = 0;         // SO_RXQ_OVFL as reported by workers
};

// Owns the router's event loop and channels. Not copyable or movable.
class RouterDaemon {
 public:
  explicit RouterDaemon(privsep::EventBase& base);
  RouterDaemon(const RouterDaemon&) = delete;
  RouterDaemon& operator=(const RouterDaemon&) = delete;

 private:
  struct Transport {
    enum class State : uint32_t { ATTACHED, BOUND };
    using Which = schema::TransportEvent::Which;
    std::string name;
    State state = State::ATTACHED;
    privsep::AllowTable<Which, 3> allow{std::array<privsep::AllowRule<Which>, 3>{{
        {Which::BOUND, privsep::stateBit(State::ATTACHED), 1},
        {Which::DATAGRAMS, privsep::stateBit(State::BOUND), 0},
        {Which::STATS, privsep::stateBit(State::BOUND), 0},
    }}};
    std::unique_ptr<privsep::Channel> channel;
  };

  void onConfigure(schema::SupervisorRequest::Configure::Reader configure);
  void onAttach(const std::string& name, privsep::UniqueFd fd);
  void onTunEvent(capnp::MessageReader& reader, std::vector<privsep::UniqueFd>& fds);
  void onTransportEvent(Transport& t, capnp::MessageReader& reader);
  void stop();

  privsep::EventBase& base_;
  crypto::Secp256k1Context secp_;
  std::optional<identity::SecretKey> secretKey_;
  privsep::SupervisorLink supervisor_;
  std::unique_ptr<privsep::Channel> tunChannel_;
  privsep::AllowTable<schema::TunEvent::Which, 2> tunAllow_;
  privsep::UniqueFd tunFd_;
  std::map<std::string, std::unique_ptr<Transport>> transports_;
  RouterCounters counters_;
};

}  // namespace fips::router
