// SPDX-License-Identifier: MIT
// MeshNode: wiring of the link engine and the mesh components (see
// mesh-node.h). Runs in fips-router; link message bodies come from
// authenticated peers but are their choice, so every component decodes them
// as untrusted input.
#include "router/mesh/mesh-node.h"

#include <numeric>

namespace fips::router::mesh {

size_t MessageCounts::slot(fmp::LinkMessageType type) {
  using T = fmp::LinkMessageType;
  switch (type) {
    case T::SESSION_DATAGRAM:
      return 0;
    case T::SENDER_REPORT:
      return 1;
    case T::RECEIVER_REPORT:
      return 2;
    case T::TREE_ANNOUNCE:
      return 3;
    case T::FILTER_ANNOUNCE:
      return 4;
    case T::LOOKUP_REQUEST:
      return 5;
    case T::LOOKUP_RESPONSE:
      return 6;
    case T::DISCONNECT:
      return 7;
    case T::HEARTBEAT:
      return 8;
  }
  return OTHER;
}

uint64_t MessageCounts::total() const {
  return std::accumulate(counts_.begin(), counts_.end(), uint64_t{0});
}

uint64_t MeshCounters::controlMessagesOut() const {
  return messagesOut.total();
}

MeshNode::MeshNode(const crypto::Secp256k1Context& ctx, crypto::SecretKey localKey,
                   noise::Epoch epoch, std::shared_ptr<const MeshConfig> config,
                   const link::Clock& clock, const WallClock& wall, crypto::Rng& rng, MeshIo& io)
    : config_(std::move(config)),
      clock_(clock),
      wall_(wall),
      rng_(rng),
      io_(io),
      links_(ctx, std::move(localKey), epoch, config_->link, clock, rng, *this),
      tree_(ctx, links_.localKey(), config_->tree, rng, now()),
      bloom_(tree_.self(), config_->bloom),
      lookup_(config_->lookup, ctx, links_.localKey(), rng),
      coords_(config_->coordCache),
      ids_(config_->identityCache),
      sessions_(
          fsp::LocalIdentity{&ctx, &links_.suite(), &links_.localKey(), links_.localAddr(), epoch},
          config_->session, coords_, ids_),
      forwarder_(routing::ForwardingConfig{config_->session.defaultTtl, 100}) {
  sessions_.setMyCoords(tree_.coordinates());
  sessions_.setTransportMtu(transportMtu_);
}

bool MeshNode::addStaticPeer(const crypto::PublicKey& key, std::vector<link::TransportAddr> addrs) {
  ids_.insert(key);
  const bool added = links_.addStaticPeer(key, std::move(addrs));
  flush();
  return added;
}

bool MeshNode::setStaticPeerAddrs(const crypto::PublicKey& key,
                                  std::vector<link::TransportAddr> addrs) {
  return links_.setStaticPeerAddrs(key, std::move(addrs));
}

bool MeshNode::addEphemeralPeer(const crypto::PublicKey& key, const link::TransportAddr& addr) {
  ids_.insert(key);
  const bool added = links_.addEphemeralPeer(key, addr);
  flush();
  return added;
}

bool MeshNode::removePeer(const identity::NodeAddr& peer) {
  // A link that was up goes with the session to that node, as the
  // reference's remove_active_peer; a dial only cancelled leaves a session
  // to the node over other links alone.
  const bool linked = links_.isLinked(peer);
  const bool known = links_.removePeer(peer);
  if (linked) {
    fsp::SessionActions actions;
    sessions_.removeSession(peer, actions);
    apply(actions);
  }
  flush();
  return known;
}

void MeshNode::onDatagram(const link::TransportAddr& from, std::span<const uint8_t> packet) {
  links_.onDatagram(from, packet);
  if (linkMeasured_) {
    // A link got its first RTT (spec 02 §9.3): parent selection looks again
    // with the measured costs, as the reference does on its first RTT.
    linkMeasured_ = false;
    costs_ = links_.measuredLinkCosts();
    apply(tree_.reevaluate(costs_, now()));
  }
  flush();
}

void MeshNode::tick() {
  links_.tick();
  costs_ = links_.measuredLinkCosts();
  const uint64_t nowMs = clock_.nowMs();
  apply(tree_.tick(costs_, now()));
  queueFilters();
  refreshView();
  lookup::LookupActions actions;
  lookup_.tick(*this, nowMs, actions);
  apply(actions);
  coords_.purgeExpired(nowMs);
  fsp::SessionActions sessionActions;
  sessions_.tick(nowMs, rng_, sessionActions);
  apply(sessionActions);
  tickPathMtu();
  flush();
}

void MeshNode::shutdown() {
  outbox_.clear();
  links_.shutdown();
}

lookup::LookupStart MeshNode::lookup(const identity::NodeAddr& target, size_t* fanout) {
  refreshView();
  lookup::LookupActions actions;
  const auto started = lookup_.start(*this, target, clock_.nowMs(), actions);
  if (fanout != nullptr) *fanout = actions.sends.size();
  apply(actions);
  flush();
  return started;
}

void MeshNode::learnIdentity(const crypto::PublicKey& key) {
  ids_.insert(key);
}

void MeshNode::learnCoords(const identity::NodeAddr& addr, stp::Coordinates coords) {
  coords_.insert(addr, std::move(coords), clock_.nowMs());
}

const stp::Coordinates* MeshNode::cachedCoords(const identity::NodeAddr& addr) const {
  const auto* entry = coords_.get(addr, clock_.nowMs());
  return entry ? &entry->coords : nullptr;
}

MeshSnapshot MeshNode::snapshot() const {
  return MeshSnapshot{links_.localAddr(), links_.peers(), tree_.root(), tree_.parent(),
                      tree_.coordinates()};
}

stp::TreeNow MeshNode::now() const {
  return stp::TreeNow{clock_.nowMs(), wall_.unixSecs()};
}

void MeshNode::apply(const stp::TreeOutput& out, const identity::NodeAddr* from) {
  if (!out.announceTo.empty()) {
    const std::vector<uint8_t> body = tree_.announceBody();
    for (const auto& peer : out.announceTo) queue(peer, fmp::LinkMessageType::TREE_ANNOUNCE, body);
  }
  const auto treePeer = [this](const identity::NodeAddr& p) { return isTreePeer(p); };
  if (out.parentChanged) bloom_.markAll();
  if (out.bloomRecheck && from) bloom_.markChanged(*from, treePeer);
  if (out.invalidateViaSelf) coords_.invalidateVia(self());
  if (out.invalidateOtherRoots) coords_.invalidateOtherRoots(tree_.root());
  if (out.resetLookupBackoff) lookup_.resetBackoff();
  if (out.parentChanged || out.coordsChanged) {
    sessions_.setMyCoords(tree_.coordinates());
    io_.onTreeChanged(tree_.coordinates());
  }
}

void MeshNode::apply(lookup::LookupActions& actions) {
  for (const auto& send : actions.sends) {
    if (send.message.empty()) continue;
    const auto type = static_cast<fmp::LinkMessageType>(send.message[0]);
    const std::span<const uint8_t> body(send.message.data() + 1, send.message.size() - 1);
    for (const auto& peer : send.peers) queue(peer, type, body);
  }
  const auto done = std::move(actions);
  actions = {};
  // Departure from the reference (which sends filters only when they
  // change): a peer that routes us a lookup our last filter to it does not
  // cover holds a stale copy (a lost FilterAnnounce); send it ours again.
  for (const auto& [from, target] : done.routedHere) {
    if (!bloom_.advertised(from, target)) bloom_.repair(from);
  }
  for (const auto& resolved : done.resolved) {
    if (const auto* coords = cachedCoords(resolved.target))
      io_.onLookupResolved(resolved.target, *coords);
    lookupFinished(resolved.target, true);
  }
  for (const auto& target : done.unreachable) {
    io_.onLookupFailed(target);
    lookupFinished(target, false);
  }
}

void MeshNode::queueFilters() {
  const auto treePeer = [this](const identity::NodeAddr& p) { return isTreePeer(p); };
  for (const auto& send : bloom_.tick(clock_.nowMs(), treePeer)) {
    queue(send.peer, fmp::LinkMessageType::FILTER_ANNOUNCE, send.body);
  }
}

void MeshNode::queue(const identity::NodeAddr& peer, fmp::LinkMessageType type,
                     std::span<const uint8_t> body) {
  outbox_.push_back(Outgoing{peer, type, {body.begin(), body.end()}});
}

void MeshNode::flush() {
  std::vector<Outgoing> batch;
  batch.swap(outbox_);
  for (const Outgoing& out : batch) {
    if (links_.sendLinkMessage(out.peer, out.type, out.body)) {
      counters_.messagesOut.add(out.type);
    } else {
      ++counters_.sendFailures;
    }
  }
  std::vector<Outgoing> probes;
  probes.swap(probes_);
  sendingProbe_ = true;
  for (const Outgoing& out : probes) links_.sendLinkMessage(out.peer, out.type, out.body);
  sendingProbe_ = false;
}

void MeshNode::sendDatagram(const link::TransportAddr& to, std::span<const uint8_t> packet) {
  if (sendingProbe_) {
    io_.sendProbe(to, packet);
  } else {
    io_.sendDatagram(to, packet);
  }
}

void MeshNode::onLinkUp(const link::PeerInfo& peer) {
  io_.onLinkUp(peer);
  ids_.insert(peer.key);
  bloom_.addPeer(peer.addr);
  lookup_.resetBackoff();
  apply(tree_.addPeer(peer.addr, peer.key.xOnly(), now()));
  startPathMtu(peer.addr);
  pollPathMtu(peer.addr);
}

void MeshNode::onLinkDown(const link::PeerInfo& peer, link::LinkDownReason reason) {
  io_.onLinkDown(peer, reason);
  pmtu_.erase(peer.addr);
  bloom_.removePeer(peer.addr);
  apply(tree_.removePeer(peer.addr, costs_, now()));
  // FIPS spec 04 §2.4 (reference remove_active_peer): the session keyed by
  // a peer whose link goes away, for any reason, goes with it. A Disconnect
  // (the peer's graceful restart or move) is the case that matters: the peer
  // comes back with no session, and ours would go on sealing to keys it no
  // longer has until the next session rekey (#25).
  fsp::SessionActions actions;
  sessions_.removeSession(peer.addr, actions);
  apply(actions);
}

void MeshNode::onLinkMessage(const identity::NodeAddr& peer, fmp::LinkMessageType type,
                             std::span<const uint8_t> body) {
  counters_.messagesIn.add(type);
  switch (type) {
    case fmp::LinkMessageType::TREE_ANNOUNCE:
      apply(tree_.onTreeAnnounce(peer, body, costs_, now()).out, &peer);
      break;
    case fmp::LinkMessageType::FILTER_ANNOUNCE:
      bloom_.onFilterAnnounce(peer, body, [this](const auto& p) { return isTreePeer(p); });
      break;
    case fmp::LinkMessageType::LOOKUP_REQUEST:
    case fmp::LinkMessageType::LOOKUP_RESPONSE:
      onLookupMessage(peer, type, body);
      break;
    case fmp::LinkMessageType::SESSION_DATAGRAM:
      onSessionDatagram(peer, body);
      break;
    default:
      ++counters_.unhandled;
      break;
  }
}

void MeshNode::onLinkMeasured(const identity::NodeAddr& /*peer*/) {
  linkMeasured_ = true;
}

void MeshNode::onLookupMessage(const identity::NodeAddr& peer, fmp::LinkMessageType type,
                               std::span<const uint8_t> body) {
  refreshView();
  lookup::LookupActions actions;
  if (type == fmp::LinkMessageType::LOOKUP_REQUEST) {
    lookup_.onRequest(*this, peer, body, clock_.nowMs(), actions);
  } else {
    if (onProbeAnswer(peer, body)) return;
    lookup_.onResponse(*this, ids_, coords_, body, clock_.nowMs(), actions);
  }
  apply(actions);
}

}  // namespace fips::router::mesh
