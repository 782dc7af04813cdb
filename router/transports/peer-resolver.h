// SPDX-License-Identifier: MIT
// PeerResolver: static peers configured by host name ("node-b:2121"). Their
// addresses are looked up at connect time by the UDP worker (the router has
// no sockets), as the reference resolves a peer's "host:port" when it dials:
// while the peer is down its answer is looked up again on the peer retry
// schedule (base × 2^n after the answer, capped at the retry cap and at 60 s,
// the reference's DNS cache TTL), so a dial that failed is followed by one
// at the name's current address rather than at an address a minute old
// (issue #25: a peer that moved was dialed at its old IP for up to 60 s).
// While the peer is up its answer is not looked up (a live link follows
// its peer's authenticated frames). A failed lookup is logged and retried
// with the same backoff. fd00::/8 answers are refused like
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

#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/node-addr.h"
#include "router/link/transport-addr.h"

namespace fips::router {

// The longest an answer is used for a peer that is down before it is looked
// up again, in ms.
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
  using AddrsHandler = std::function<void(const crypto::PublicKey& key,
                                          std::vector<link::TransportAddr> addrs, bool ephemeral)>;

  PeerResolver(uint64_t retryBaseMs, uint64_t retryCapMs, SendResolve send, AddrsHandler onAddrs);
  PeerResolver(const PeerResolver&) = delete;
  PeerResolver& operator=(const PeerResolver&) = delete;

  // A peer with host-name addresses and maybe numeric ones (used as they
  // are, next to the answers). `name` is for logs.
  void add(const crypto::PublicKey& key, const std::string& name,
           std::vector<link::TransportAddr> numeric, std::vector<PeerHostName> hosts);
  // A peer to dial once at `host` (fipsctl connect with a host name): looked
  // up on the next tick; the first usable answer is handed over once and
  // the peer forgotten, as it is after a failed lookup (no retries: a
  // connect that fails leaves nothing behind). False if `peer` is ours
  // already.
  bool addEphemeral(const crypto::PublicKey& key, const std::string& name, PeerHostName host);
  // Whether `peer` is one of ours and none of its names has answered yet
  // (its first dial waits for a lookup).
  bool awaitingFirstAnswer(const identity::NodeAddr& peer) const;
  // Forgets `peer` (fipsctl disconnect): no more lookups, and an answer
  // still in flight is ignored. False if it was not ours.
  bool remove(const identity::NodeAddr& peer);
  // Sends the lookups that are due: never answered, failed and due for a
  // retry, or, while `isUp` says the peer is down, older than the retry
  // backoff for the number of lookups since it was last seen up (at most
  // RESOLVE_TTL_MS).
  void tick(uint64_t nowMs, const std::function<bool(const identity::NodeAddr&)>& isUp);
  // A worker's answer (see TransportSet::ResolvedHandler).
  void onResolved(uint32_t transportId, uint32_t id, std::vector<link::TransportAddr> addrs,
                  const std::string& error, uint64_t nowMs);

 private:
  struct Host {
    PeerHostName name;
    std::vector<link::TransportAddr> answer;  // the last usable answer
    std::optional<uint32_t> inFlight;         // request id
    uint64_t dueMs = 0;                       // no lookup before (failure backoff)
    uint32_t failures = 0;                    // since the last usable answer
    uint64_t answeredMs = 0;                  // when the last usable answer came
    uint32_t downRefreshes = 0;               // lookups since the peer was last seen up
  };
  struct Peer {
    crypto::PublicKey key;
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
