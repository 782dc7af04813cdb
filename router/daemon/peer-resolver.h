// SPDX-License-Identifier: MIT
// PeerResolver: static peers configured by host name ("node-b:2121"). Their
// addresses are looked up at connect time by the UDP worker (the router has
// no sockets), as the reference resolves a peer's "host:port" when it dials:
// an answer is kept for 60 s (the reference's DNS cache TTL) and looked up
// again when it is older while the peer is not up, so each redial after a
// minute uses a fresh answer. A failed lookup is logged and retried with the
// peer retry backoff (base × 2^n, capped). fd00::/8 answers are refused like
// numeric ones. Runs in fips-router; answers come from the worker (less
// trusted, checked by TransportSet) and name no peer by themselves: only the
// handshake authenticates one.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "privsep/host-name.h"

#include "router/identity/node-addr.h"
#include "router/identity/public-key.h"
#include "router/link/transport-addr.h"

namespace fips::router {

// How long an answer is used before it is looked up again, in ms.
constexpr uint64_t RESOLVE_TTL_MS = 60'000;

// One host-name address of a static peer.
struct PeerHostName {
  uint32_t transportId = 0;
  privsep::HostPort target;
};

// Not copyable or movable.
class PeerResolver {
 public:
  // Sends a lookup; false if it cannot be sent now (tried again next tick).
  using SendResolve = std::function<bool(uint32_t transportId, uint32_t id, const std::string& host,
                                         uint16_t port)>;
  // The peer's usable addresses changed (never called with an empty list).
  // `ephemeral`: the one answer for a connect-time name (addEphemeral).
  using AddrsHandler = std::function<void(const identity::PublicKey& key,
                                          std::vector<link::TransportAddr> addrs, bool ephemeral)>;

  PeerResolver(uint64_t retryBaseMs, uint64_t retryCapMs, SendResolve send, AddrsHandler onAddrs);
  PeerResolver(const PeerResolver&) = delete;
  PeerResolver& operator=(const PeerResolver&) = delete;

  // A peer with host-name addresses and maybe numeric ones (used as they
  // are, next to the answers). `name` is for logs.
  void add(const identity::PublicKey& key, const std::string& name,
           std::vector<link::TransportAddr> numeric, std::vector<PeerHostName> hosts);
  // A peer to dial once at `host` (fipsctl connect with a host name): looked
  // up on the next tick; the first usable answer is handed over once and
  // the peer forgotten, as it is after a failed lookup (no retries: a
  // connect that fails leaves nothing behind). False if `peer` is ours
  // already.
  bool addEphemeral(const identity::PublicKey& key, const std::string& name, PeerHostName host);
  // Whether `peer` is one of ours and none of its names has answered yet
  // (its first dial waits for a lookup).
  bool awaitingFirstAnswer(const identity::NodeAddr& peer) const;
  // Forgets `peer` (fipsctl disconnect): no more lookups, and an answer
  // still in flight is ignored. False if it was not ours.
  bool remove(const identity::NodeAddr& peer);
  // Sends the lookups that are due: never answered, failed and due for a
  // retry, or older than RESOLVE_TTL_MS while `isUp` says the peer is down.
  void tick(uint64_t nowMs, const std::function<bool(const identity::NodeAddr&)>& isUp);
  // A worker's answer (see TransportSet::ResolvedHandler).
  void onResolved(uint32_t transportId, uint32_t id, std::vector<link::TransportAddr> addrs,
                  const std::string& error, uint64_t nowMs);

 private:
  struct Host {
    PeerHostName name;
    std::vector<link::TransportAddr> answer;  // the last usable answer
    std::optional<uint32_t> inFlight;         // request id
    uint64_t dueMs = 0;                       // next lookup
    uint32_t failures = 0;                    // since the last usable answer
  };
  struct Peer {
    identity::PublicKey key;
    std::string name;
    std::vector<link::TransportAddr> numeric;
    std::vector<Host> hosts;
    bool ephemeral = false;
  };

  void publish(Peer& peer);
  // Logs a failed lookup; true if the peer is ephemeral (then to be forgotten).
  bool failed(Peer& peer, Host& host, const std::string& why, uint64_t nowMs);

  uint64_t retryBaseMs_;
  uint64_t retryCapMs_;
  SendResolve send_;
  AddrsHandler onAddrs_;
  std::map<identity::NodeAddr, Peer> peers_;
  uint32_t nextId_ = 1;
};

}  // namespace fips::router
