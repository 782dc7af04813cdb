// SPDX-License-Identifier: MIT
// Simulator: N mesh node cores (router/mesh MeshNode, the same protocol
// code fips-router runs) over a VirtualNet on virtual time, with node
// churn (crash, restart with the same or a new identity). Everything random
// comes from the seed, so a run repeats exactly. Test code only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/node-addr.h"
#include "router/mesh/mesh-config.h"
#include "router/mesh/mesh-node.h"
#include "tests/sim/event-queue.h"
#include "tests/sim/sim-random.h"
#include "tests/sim/topology.h"
#include "tests/sim/virtual-net.h"

namespace fips::sim {

class Simulator;

// One simulated node: its identity, its core and what it saw.
class SimNode final : public router::mesh::MeshIo {
 public:
  SimNode(Simulator& sim, size_t index, uint64_t seed);
  void sendDatagram(const router::link::TransportAddr& to,
                    std::span<const uint8_t> packet) override;
  void onLinkUp(const router::link::PeerInfo& peer) override;
  void onLinkDown(const router::link::PeerInfo& peer, router::link::LinkDownReason reason) override;
  void onLookupResolved(const identity::NodeAddr& target,
                        const router::stp::Coordinates& coords) override;
  void onLookupFailed(const identity::NodeAddr& target) override;

  bool running() const { return core != nullptr; }
  // A fresh key pair (and so node_addr) from the node's rng.
  void newIdentity();
  size_t activePeers() const;

  Simulator& sim;
  size_t index;
  router::link::TransportAddr addr;
  SimCryptoRng rng;
  crypto::SecretKey key;
  crypto::PublicKey publicKey;
  identity::NodeAddr nodeAddr;
  std::unique_ptr<router::mesh::MeshNode> core;
  uint64_t starts = 0;
  uint64_t linkUps = 0;
  uint64_t linkDowns = 0;
  std::set<identity::NodeAddr> resolved;  // lookups answered
  std::set<identity::NodeAddr> failed;    // lookups out of attempts
};

class Simulator {
 public:
  // Builds one node per topology vertex (keys from the seed), links them per
  // params, and starts every node with each neighbour as a static peer.
  Simulator(const Topology& topology, const LinkParams& params, uint64_t seed,
            const router::mesh::MeshConfig& config = {});
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  size_t size() const { return nodes_.size(); }
  SimNode& node(size_t i) { return *nodes_[i]; }
  const Topology& topology() const { return topology_; }

  // Crash: the node's core is dropped without a word (neighbours notice by
  // their dead timer).
  void stop(size_t i);
  // Graceful stop (SIGTERM): the node sends Disconnect(Shutdown) to every
  // peer, then its core is dropped.
  void shutdown(size_t i);
  // Starts a stopped node (or restarts a running one, as a crash + start):
  // a fresh startup epoch, and a fresh key pair when newIdentity.
  void start(size_t i, bool newIdentity = false);

  // Runs virtual time forward.
  void runFor(uint64_t ms) { events.runFor(ms); }
  // Runs until pred() holds (checked every 50 virtual ms) or timeoutMs
  // elapse; the virtual ms it took, or nullopt.
  std::optional<uint64_t> runUntil(uint64_t timeoutMs, const std::function<bool()>& pred);

  // True if every usable link (up, not across a partition) between running
  // nodes carries an active FMP link at both ends, and no other link exists.
  bool linksMatchNet() const;
  // The node a transport address belongs to (its index), or size().
  size_t indexOf(const router::link::TransportAddr& addr) const;
  // The node with this node_addr now (its index), or size().
  size_t indexOfAddr(const identity::NodeAddr& addr) const;

  EventQueue events;
  VirtualNet net;
  crypto::Secp256k1Context ctx;
  // Runs after every delivered datagram and every node tick (an invariant
  // check); empty = none.
  std::function<void()> afterEvent;

 private:
  void scheduleTick(size_t i, uint64_t atMs);
  void addNeighbours(SimNode& n);

  Topology topology_;
  std::vector<std::vector<size_t>> adjacency_;
  // One immutable config for every node's core (shared, not copied).
  std::shared_ptr<const router::mesh::MeshConfig> config_;
  SimRandom rnd_;
  std::vector<std::unique_ptr<SimNode>> nodes_;
  std::map<identity::NodeAddr, size_t> byAddr_;  // indexOfAddr()'s index
  bool built_ = false;
};

}  // namespace fips::sim
