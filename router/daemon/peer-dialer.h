// SPDX-License-Identifier: MIT
// PeerDialer: the peers fips-router dials and watches. Static peers go to
// the link engine at their numeric addresses; peers named by host name are
// looked up by a transport worker first (PeerResolver) and looked up again
// on their retry schedule; `connect_policy: on_demand` peers get
// coordinate lookups (OnDemandLookups); completed rekeys are logged once a
// tick. Runs on the data-plane thread; peers come from the validated config
// and from fipsctl connect (control-commands).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lib/identity/node-addr.h"
#include "router/daemon/on-demand-lookups.h"
#include "router/link/link-io.h"
#include "router/mesh/mesh-node.h"
#include "router/transports/peer-resolver.h"
#include "router/transports/static-peers.h"
#include "router/transports/transport-set.h"
#include "supervisor.capnp.h"

namespace fips::router {

class PeerDialer {
 public:
  // transports and clock must outlive the dialer.
  PeerDialer(TransportSet& transports, const link::Clock& clock);
  PeerDialer(const PeerDialer&) = delete;
  PeerDialer& operator=(const PeerDialer&) = delete;

  // Hands the slice's peers to `mesh` (which must outlive the dialer) and
  // sends the host-name lookups that are due. peers: as dialablePeers read
  // them before the sandbox; warnings: theirs, to which refusals are added
  // before all are logged.
  void start(schema::RouterConfig::Reader slice, mesh::MeshNode& mesh,
             std::vector<DialablePeer> peers, std::vector<std::string> warnings);
  // One tick at nowMs (monotonic ms): due coordinate lookups, the rekey
  // log, due host-name lookups.
  void onTick(uint64_t nowMs);
  // The node's answer to a coordinate lookup.
  void lookupResolved(const identity::NodeAddr& target) { onDemand_.resolved(target); }
  void lookupFailed(const identity::NodeAddr& target, uint64_t nowMs) {
    onDemand_.failed(target, nowMs);
  }
  // Null until started.
  PeerResolver* resolver() { return resolver_.get(); }

 private:
  void resolveDue(uint64_t nowMs);
  void logRekeys();

  TransportSet& transports_;
  const link::Clock& clock_;
  mesh::MeshNode* mesh_ = nullptr;
  OnDemandLookups onDemand_;
  std::unique_ptr<PeerResolver> resolver_;
  std::map<identity::NodeAddr, uint64_t> rekeysSeen_;  // completed rekeys per active peer
};

}  // namespace fips::router
