// SPDX-License-Identifier: MIT
// The mesh simulator's nodes and churn (see simulator.h).
#include "tests/sim/simulator.h"

#include <set>
#include <stdexcept>
#include <variant>

namespace fips::sim {

namespace {

constexpr uint64_t TICK_MS = 1000;
constexpr uint64_t CHECK_EVERY_MS = 50;  // runUntil()'s predicate granularity

crypto::SecretKey newKey(const crypto::Secp256k1Context& ctx, crypto::Rng& rng) {
  auto key = crypto::SecretKey::generate(ctx, rng);
  if (!key) throw std::runtime_error("sim: key generation failed");
  return std::move(*key);
}

crypto::PublicKey identityKey(const crypto::SecretKey& key) {
  return key.publicKey();
}

router::link::TransportAddr addressOf(size_t i) {
  const uint8_t ip[4] = {10, static_cast<uint8_t>(i >> 16U), static_cast<uint8_t>(i >> 8U),
                         static_cast<uint8_t>(i & 0xFFU)};
  return *router::link::TransportAddr::make(1, ip, 2121);
}

}  // namespace

SimNode::SimNode(Simulator& s, size_t i, uint64_t seed)
    : sim(s),
      index(i),
      addr(addressOf(i)),
      rng(seed),
      key(newKey(s.ctx, rng)),
      publicKey(identityKey(key)),
      nodeAddr(identity::NodeAddr::fromPublicKey(publicKey)) {}

void SimNode::newIdentity() {
  key = newKey(sim.ctx, rng);
  publicKey = identityKey(key);
  nodeAddr = identity::NodeAddr::fromPublicKey(publicKey);
}

void SimNode::sendDatagram(const router::link::TransportAddr& to, std::span<const uint8_t> packet) {
  sim.net.send(index, sim.indexOf(to), packet);
}

void SimNode::onLinkUp(const router::link::PeerInfo&) {
  ++linkUps;
}

void SimNode::onLinkDown(const router::link::PeerInfo&, router::link::LinkDownReason) {
  ++linkDowns;
}

void SimNode::onLookupResolved(const identity::NodeAddr& target, const router::stp::Coordinates&) {
  resolved.insert(target);
}

void SimNode::onLookupFailed(const identity::NodeAddr& target) {
  failed.insert(target);
}

size_t SimNode::activePeers() const {
  return core ? core->snapshot().peers.size() : 0;
}

Simulator::Simulator(const Topology& topology, const LinkParams& params, uint64_t seed,
                     const router::mesh::MeshConfig& config)
    : net(events, seed ^ 0x5157ULL),
      topology_(topology),
      adjacency_(topology.adjacency()),
      config_(std::make_shared<const router::mesh::MeshConfig>(config)),
      rnd_(seed) {
  net.addTopology(topology, params);
  net.setReceiver([this](size_t to, size_t from, std::span<const uint8_t> datagram) {
    SimNode& n = *nodes_[to];
    if (!n.core) return;
    n.core->onDatagram(n.sim.nodes_[from]->addr, datagram);
    if (afterEvent) afterEvent();
  });
  for (size_t i = 0; i < topology.nodes; ++i) {
    nodes_.push_back(std::make_unique<SimNode>(*this, i, rnd_.next()));
  }
  for (size_t i = 0; i < size(); ++i) start(i);
  built_ = true;
  for (size_t i = 0; i < size(); ++i) addNeighbours(*nodes_[i]);
  for (size_t i = 0; i < size(); ++i) scheduleTick(i, events.nowMs() + rnd_.below(TICK_MS) + 1);
}

size_t Simulator::indexOfAddr(const identity::NodeAddr& addr) const {
  // The index keeps a large mesh's lookups cheap; a miss (or an entry made
  // stale by SimNode::newIdentity outside start()) falls back to a scan.
  if (const auto it = byAddr_.find(addr);
      it != byAddr_.end() && it->second < size() && nodes_[it->second]->nodeAddr == addr)
    return it->second;
  for (size_t i = 0; i < size(); ++i) {
    if (nodes_[i]->nodeAddr == addr) return i;
  }
  return size();
}

size_t Simulator::indexOf(const router::link::TransportAddr& addr) const {
  if (addr.ipLen != 4 || addr.ip[0] != 10) return size();
  return (size_t{addr.ip[1]} << 16U) | (size_t{addr.ip[2]} << 8U) | addr.ip[3];
}

void Simulator::stop(size_t i) {
  nodes_[i]->core.reset();
}

void Simulator::shutdown(size_t i) {
  if (nodes_[i]->core) nodes_[i]->core->shutdown();
  nodes_[i]->core.reset();
}

void Simulator::start(size_t i, bool newIdentity) {
  SimNode& n = *nodes_[i];
  n.core.reset();
  if (newIdentity) {
    byAddr_.erase(n.nodeAddr);
    n.newIdentity();
  }
  byAddr_[n.nodeAddr] = i;
  ++n.starts;
  router::noise::Epoch epoch{};
  for (size_t b = 0; b < epoch.size(); ++b) epoch[b] = static_cast<uint8_t>(rnd_.next());
  n.core = std::make_unique<router::mesh::MeshNode>(ctx, n.key.clone(), epoch, config_, events,
                                                    events, n.rng, n);
  // While the constructor runs, neighbours have no keys yet; it adds them
  // once every node has one.
  if (built_) addNeighbours(n);
}

void Simulator::addNeighbours(SimNode& n) {
  for (size_t j : adjacency_[n.index]) {
    n.core->addStaticPeer(nodes_[j]->publicKey, {nodes_[j]->addr});
  }
}

void Simulator::scheduleTick(size_t i, uint64_t atMs) {
  events.at(atMs, [this, i, atMs]() {
    if (nodes_[i]->core) {
      nodes_[i]->core->tick();
      if (afterEvent) afterEvent();
    }
    scheduleTick(i, atMs + TICK_MS);
  });
}

std::optional<uint64_t> Simulator::runUntil(uint64_t timeoutMs, const std::function<bool()>& pred) {
  const uint64_t start = events.nowMs();
  for (uint64_t t = 0; !pred(); t += CHECK_EVERY_MS) {
    if (t >= timeoutMs) return std::nullopt;
    events.runUntil(start + t + CHECK_EVERY_MS);
  }
  return events.nowMs() - start;
}

bool Simulator::linksMatchNet() const {
  const Topology usable = net.usable(size());
  const auto adj = usable.adjacency();
  for (const auto& n : nodes_) {
    if (!n->core) continue;
    std::set<identity::NodeAddr> want;
    for (size_t j : adj[n->index]) {
      if (nodes_[j]->core) want.insert(nodes_[j]->nodeAddr);
    }
    std::set<identity::NodeAddr> have;
    for (const auto& p : n->core->snapshot().peers) have.insert(p.addr);
    if (want != have) return false;
  }
  return true;
}

}  // namespace fips::sim
