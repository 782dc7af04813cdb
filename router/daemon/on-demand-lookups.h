// SPDX-License-Identifier: MIT
// OnDemandLookups: the router discovers the tree coordinates of the peers
// configured with `connect_policy: on_demand` (spec 03 §5.3 lookups). Until
// sessions (#6) and `fipsctl probe` (#7) start lookups for traffic, this is
// what makes a real node look another up: each such peer's key goes into the
// identity cache and it is looked up once the mesh can carry the request,
// then again after a failure. Runs in fips-router; the peers come from the
// validated config.
#pragma once

#include <cstdint>
#include <map>

#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/node-addr.h"
#include "router/mesh/mesh-node.h"

namespace fips::router {

class OnDemandLookups {
 public:
  // A peer to look up (its key is handed to the node's identity cache).
  void add(mesh::MeshNode& node, const crypto::PublicKey& key);
  // Starts the lookups that are due (call every tick).
  void tick(mesh::MeshNode& node, uint64_t nowMs);
  // The node's answers; false if target is not one of ours.
  bool resolved(const identity::NodeAddr& target);
  bool failed(const identity::NodeAddr& target, uint64_t nowMs);

 private:
  static constexpr uint64_t RETRY_MS = 30'000;  // after an unreachable answer
  struct Target {
    bool resolved = false;
    bool inFlight = false;
    uint64_t notBeforeMs = 0;
  };
  std::map<identity::NodeAddr, Target> targets_;
};

}  // namespace fips::router
