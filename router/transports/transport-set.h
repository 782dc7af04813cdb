// SPDX-License-Identifier: MIT
// TransportSet: fips-router's side of its transport workers. Gives every
// transport name ("udp", "udp/main") a stable id for the link engine, owns
// the router<->worker channels (re-attached when a worker restarts), checks
// what workers send against a state table, and batches outgoing datagrams:
// one TransportRequest.send message per transport per flush(); it also
// carries host-name lookups (resolve/resolved) to the workers that do them.
// Runs in fips-router; workers face the network and are less trusted than
// it: a worker message that breaks transport.capnp's rules is counted,
// logged and closes that worker's channel (the worker exits and is
// restarted by the supervisor), as the schema's header says.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
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
  uint64_t workerFaults = 0;         // worker messages that broke transport.capnp (worker closed)
};

// One transport worker as the router sees it (fipsctl show transports).
struct TransportInfo {
  uint32_t id = 0;
  std::string name;  // "udp", "udp/<instance>"
  bool bound = false;
  std::vector<std::string> localAddrs;  // "ip:port" as the worker bound them
  uint64_t packetsIn = 0;               // counted by the router
  uint64_t packetsOut = 0;
  uint64_t bytesIn = 0;
  uint64_t bytesOut = 0;
  uint64_t workerRx = 0;  // as last reported by the worker (TransportEvent.stats)
  uint64_t workerTx = 0;
  uint64_t kernelDrops = 0;
  uint64_t sendErrors = 0;
  // The worker's own counters (tcp: connections_accepted, ...), as last
  // reported, in its order.
  std::vector<std::pair<std::string, uint64_t>> counters;
};

// Named counters a worker may report per stats message (transport.capnp).
constexpr size_t MAX_NAMED_COUNTERS = 32;
constexpr size_t MAX_COUNTER_NAME = 40;

// Not copyable or movable.
class TransportSet {
 public:
  // Called for each received datagram: (from, payload), payload valid for
  // the call only.
  using DatagramHandler = std::function<void(const link::TransportAddr&, std::span<const uint8_t>)>;

  // Called with a worker's answer to resolve(): the addresses in resolver
  // order (at most MAX_RESOLVED_ADDRS), or none and a one-line error (also
  // when the worker went away before answering).
  using ResolvedHandler =
      std::function<void(uint32_t transportId, uint32_t id, std::vector<link::TransportAddr> addrs,
                         const std::string& error)>;

  TransportSet(privsep::EventBase& base, DatagramHandler onDatagram);
  TransportSet(const TransportSet&) = delete;
  TransportSet& operator=(const TransportSet&) = delete;

  // The id of transport `name`, assigned on first use and stable after.
  uint32_t idFor(const std::string& name);
  // Takes the router's end of a (re)started worker's channel.
  void attach(const std::string& name, UniqueFd fd);
  // Queues one datagram for the transport `to.transportId`; a probe goes
  // out unfragmented (a path MTU probe, RFC 8899), data may be fragmented.
  void queue(const link::TransportAddr& to, std::span<const uint8_t> payload, bool probe = false);
  // Sends every queued batch (one message per transport); batches for a
  // transport that is not bound yet wait for it (the newest 256 are kept).
  void flush();
  void setResolvedHandler(ResolvedHandler onResolved) { onResolved_ = std::move(onResolved); }
  // Called when a worker reports the kernel's path MTU to a peer (UDP
  // payload bytes) after a send above it failed (TransportEvent.pathMtu).
  using PathMtuHandler = std::function<void(const link::TransportAddr& peer, uint16_t mtu)>;
  void setPathMtuHandler(PathMtuHandler onPathMtu) { onPathMtu_ = std::move(onPathMtu); }
  // Asks transport `transportId`'s worker to look up `host` (a valid host
  // name) for `port`; sent at once if the worker is bound, else when it
  // binds. False (nothing sent) if MAX_RESOLVES_IN_FLIGHT are outstanding.
  bool resolve(uint32_t transportId, uint32_t id, const std::string& host, uint16_t port);
  const TransportCounters& counters() const { return counters_; }
  // Every attached worker, by id.
  std::vector<TransportInfo> workers() const;
  // The id of the attached and bound worker called `name`, if any.
  std::optional<uint32_t> boundId(const std::string& name) const;
  // The name of transport `id`, "" if unknown.
  std::string nameOf(uint32_t id) const;

 private:
  struct Worker {
    enum class State : uint32_t { ATTACHED, BOUND };
    using Which = schema::TransportEvent::Which;
    std::string name;
    uint32_t id = 0;
    State state = State::ATTACHED;
    // resolved is also checked against the ids in `resolving`.
    privsep::AllowTable<Which, 5> allow{std::array<privsep::AllowRule<Which>, 5>{{
        {Which::BOUND, privsep::stateBit(State::ATTACHED), 1},
        {Which::DATAGRAMS, privsep::stateBit(State::BOUND), 0},
        {Which::STATS, privsep::stateBit(State::BOUND), 0},
        {Which::RESOLVED, privsep::stateBit(State::BOUND), 0},
        {Which::PATH_MTU, privsep::stateBit(State::BOUND), 0},
    }}};
    std::unique_ptr<privsep::Channel> channel;
    TransportInfo info;
    std::set<uint32_t> resolving;  // ids sent and not answered
  };
  struct ResolveRequest {
    uint32_t id;
    std::string host;
    uint16_t port;
  };
  struct Outgoing {
    link::TransportAddr to;
    std::vector<uint8_t> payload;
    bool probe = false;
  };

  void onEvent(Worker& worker, capnp::MessageReader& reader);
  void onDatagrams(Worker& worker, capnp::List<schema::Datagram>::Reader batch);
  void onResolved(Worker& worker, schema::TransportEvent::Resolved::Reader resolved);
  void onPathMtu(Worker& worker, schema::TransportEvent::PathMtu::Reader report);
  void onNamedCounters(Worker& worker, capnp::List<schema::NamedCounter>::Reader counters);
  void onDetached(Worker& worker);
  void sendResolves(Worker& worker);

  privsep::EventBase& base_;
  DatagramHandler onDatagram_;
  std::map<std::string, uint32_t> ids_;
  std::map<uint32_t, std::unique_ptr<Worker>> workers_;
  std::map<uint32_t, std::vector<Outgoing>> pending_;
  std::map<uint32_t, std::vector<ResolveRequest>> pendingResolves_;
  ResolvedHandler onResolved_;
  PathMtuHandler onPathMtu_;
  TransportCounters counters_;
};

}  // namespace fips::router
