// SPDX-License-Identifier: MIT
// TransportSet: fips-router's side of its transport workers. Gives every
// transport name ("udp", "udp/main") a stable id for the link engine, owns
// the router<->worker channels (re-attached when a worker restarts), checks
// what workers send against a state table, and batches outgoing datagrams:
// one TransportRequest.send message per transport per flush(). Runs in
// fips-router; workers face the network and are less trusted than it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "privsep/allow-table.h"
#include "privsep/channel.h"
#include "privsep/libevent.h"

#include "router/link/transport-addr.h"
#include "transport.capnp.h"

namespace fips::router {

// Counters over all transports.
struct TransportCounters {
  uint64_t datagramsIn = 0;
  uint64_t datagramsOut = 0;
  uint64_t droppedNoTransport = 0;   // overflow while a transport is not bound
  uint64_t droppedBackpressure = 0;  // the worker's channel was full
  uint64_t kernelDrops = 0;          // SO_RXQ_OVFL as last reported, summed
};

// Not copyable or movable.
class TransportSet {
 public:
  // Called for each received datagram: (from, payload), payload valid for
  // the call only.
  using DatagramHandler = std::function<void(const link::TransportAddr&, std::span<const uint8_t>)>;

  TransportSet(privsep::EventBase& base, DatagramHandler onDatagram);
  TransportSet(const TransportSet&) = delete;
  TransportSet& operator=(const TransportSet&) = delete;

  // The id of transport `name`, assigned on first use and stable after.
  uint32_t idFor(const std::string& name);
  // Takes the router's end of a (re)started worker's channel.
  void attach(const std::string& name, privsep::UniqueFd fd);
  // Queues one datagram for the transport `to.transportId`.
  void queue(const link::TransportAddr& to, std::span<const uint8_t> payload);
  // Sends every queued batch (one message per transport); batches for a
  // transport that is not bound yet wait for it (the newest 256 are kept).
  void flush();
  const TransportCounters& counters() const { return counters_; }

 private:
  struct Worker {
    enum class State : uint32_t { ATTACHED, BOUND };
    using Which = schema::TransportEvent::Which;
    std::string name;
    uint32_t id = 0;
    State state = State::ATTACHED;
    privsep::AllowTable<Which, 3> allow{std::array<privsep::AllowRule<Which>, 3>{{
        {Which::BOUND, privsep::stateBit(State::ATTACHED), 1},
        {Which::DATAGRAMS, privsep::stateBit(State::BOUND), 0},
        {Which::STATS, privsep::stateBit(State::BOUND), 0},
    }}};
    std::unique_ptr<privsep::Channel> channel;
    uint64_t kernelDrops = 0;
  };
  struct Outgoing {
    link::TransportAddr to;
    std::vector<uint8_t> payload;
  };

  void onEvent(Worker& worker, capnp::MessageReader& reader);
  void onDatagrams(Worker& worker, capnp::List<schema::Datagram>::Reader batch);

  privsep::EventBase& base_;
  DatagramHandler onDatagram_;
  std::map<std::string, uint32_t> ids_;
  std::map<uint32_t, std::unique_ptr<Worker>> workers_;
  std::map<uint32_t, std::vector<Outgoing>> pending_;
  TransportCounters counters_;
};

}  // namespace fips::router
