// SPDX-License-Identifier: MIT
// LinkManager: construction, the peer API, sending, and link bring-up and
// teardown (see link-manager.h). Runs in fips-router; peers and addresses
// come from the validated config, so they are trusted.
#include "router/link/link-manager.h"

#include <algorithm>
#include <numeric>

#include "router/fmp/disconnect.h"
#include "router/fmp/link-message.h"

namespace fips::router::link {

uint64_t LinkCounters::droppedTotal() const {
  return std::accumulate(drops.begin(), drops.end(), uint64_t{0});
}

LinkManager::LinkManager(const crypto::Secp256k1Context& ctx, crypto::SecretKey localKey,
                         noise::Epoch epoch, const LinkConfig& config, const Clock& clock,
                         crypto::Rng& rng, LinkIo& io)
    : suite_(ctx),
      localKey_(std::move(localKey)),
      local_{&suite_, &localKey_, epoch},
      localAddr_(identity::NodeAddr::fromPublicKey(localKey_.publicKey())),
      config_(config),
      clock_(clock),
      rng_(rng),
      io_(io),
      admission_(admissionConfig(config.handshakeBurst, config.handshakeRate), clock.nowMs()),
      establishedBucket_(establishedBucket(config.maxPeers, config.rekeyAfterSecs,
                                           config.handshakeMaxResends, config.handshakeBurst,
                                           config.handshakeRate, clock.nowMs())) {}

bool LinkManager::addStaticPeer(const crypto::PublicKey& key, std::vector<TransportAddr> addrs) {
  return addPeer(key, std::move(addrs), true);
}

bool LinkManager::addEphemeralPeer(const crypto::PublicKey& key, const TransportAddr& addr) {
  return addPeer(key, {addr}, false);
}

bool LinkManager::addPeer(const crypto::PublicKey& key, std::vector<TransportAddr> addrs,
                          bool redial) {
  // An fd00::/8 transport address is refused, as in the reference: it would
  // tunnel the mesh over itself.
  const bool meshAddr =
      std::any_of(addrs.begin(), addrs.end(), [](const auto& a) { return a.isFipsMeshAddress(); });
  if (addrs.empty() || meshAddr || shutdown_) return false;
  const identity::NodeAddr addr = identity::NodeAddr::fromPublicKey(key);
  const uint64_t now = clock_.nowMs();
  if (const auto known = statics_.find(addr); known != statics_.end()) {
    return known->second.parked && unpark(addr, known->second, std::move(addrs), redial, now);
  }
  if (addr == localAddr_) return false;
  auto [it, inserted] =
      statics_.emplace(addr, StaticPeer{key, std::move(addrs),
                                        RetrySchedule(config_.retryBaseIntervalSecs * 1000,
                                                      config_.retryMaxBackoffSecs * 1000),
                                        0, redial});
  if (!peers_.contains(addr) && !outbound_.contains(addr)) {
    it->second.retry.dialNow(now);
    dial(addr, it->second, now);
  }
  return inserted;
}

bool LinkManager::setStaticPeerAddrs(const crypto::PublicKey& key,
                                     std::vector<TransportAddr> addrs) {
  const auto it = statics_.find(identity::NodeAddr::fromPublicKey(key));
  if (it == statics_.end()) return addStaticPeer(key, std::move(addrs));
  const bool meshAddr =
      std::any_of(addrs.begin(), addrs.end(), [](const auto& a) { return a.isFipsMeshAddress(); });
  if (addrs.empty() || meshAddr || shutdown_) return false;
  it->second.addrs = std::move(addrs);
  it->second.nextAddr = 0;
  // A peer that is down and whose name now resolves elsewhere (it moved) is
  // dialed at the new address now: a handshake still resending to an address
  // it no longer has would hold the dial until its timeout (issue #25).
  const identity::NodeAddr peer = it->first;
  if (it->second.parked || peers_.contains(peer)) return true;
  const auto out = outbound_.find(peer);
  if (out != outbound_.end()) {
    const auto& now = it->second.addrs;
    if (std::find(now.begin(), now.end(), out->second.to) != now.end()) return true;
    cancelOutbound(peer);
  }
  it->second.retry.dialNow(clock_.nowMs());
  dial(peer, it->second, clock_.nowMs());
  return true;
}

bool LinkManager::unpark(const identity::NodeAddr& peer, StaticPeer& config,
                         std::vector<TransportAddr> addrs, bool redial, uint64_t nowMs) {
  if (peers_.contains(peer) || outbound_.contains(peer)) return false;
  config.parked = false;
  config.retry.dialNow(nowMs);
  if (redial) {
    config.addrs = std::move(addrs);
    config.nextAddr = 0;
    dial(peer, config, nowMs);
  } else {
    dialAt(peer, config, addrs.front(), nowMs);  // the connect's address, this once
  }
  return true;
}

bool LinkManager::removePeer(const identity::NodeAddr& peer) {
  const auto config = statics_.find(peer);
  const bool known = config != statics_.end();
  if (known && config->second.redial) {
    config->second.retry.clear();
    config->second.parked = true;
  } else if (known) {
    statics_.erase(config);
  }
  cancelOutbound(peer);
  const auto it = peers_.find(peer);
  if (it == peers_.end()) return known;
  sendDisconnect(*it->second, fmp::DisconnectReason::CONFIGURATION_CHANGE);
  takeDown(peer, LinkDownReason::REMOVED);
  return true;
}

DialState LinkManager::dialState(const identity::NodeAddr& peer) const {
  if (peers_.contains(peer)) return DialState::NONE;
  if (outbound_.contains(peer)) return DialState::HANDSHAKE;
  const auto config = statics_.find(peer);
  return config != statics_.end() && !config->second.parked ? DialState::WAITING : DialState::NONE;
}

bool LinkManager::sendLinkMessage(const identity::NodeAddr& peer, fmp::LinkMessageType type,
                                  std::span<const uint8_t> body) {
  const auto it = peers_.find(peer);
  if (it == peers_.end()) return false;
  const std::vector<uint8_t> message = fmp::encodeLinkMessage(type, body);
  const auto packet = it->second->seal(message, clock_.nowMs());
  if (!packet) return false;
  io_.sendDatagram(it->second->current(), *packet);
  return true;
}

void LinkManager::shutdown() {
  while (!peers_.empty()) {
    const identity::NodeAddr peer = peers_.begin()->first;
    sendDisconnect(*peers_.begin()->second, fmp::DisconnectReason::SHUTDOWN);
    takeDown(peer, LinkDownReason::SHUTDOWN);
  }
  while (!outbound_.empty()) cancelOutbound(outbound_.begin()->first);
  shutdown_ = true;
}

std::map<identity::NodeAddr, double> LinkManager::measuredLinkCosts() const {
  std::map<identity::NodeAddr, double> out;
  for (const auto& [addr, link] : peers_) {
    if (link->mmp().hasSrtt()) out.emplace(addr, link->mmp().cost());
  }
  return out;
}

std::vector<PeerInfo> LinkManager::peers() const {
  std::vector<PeerInfo> out;
  out.reserve(peers_.size());
  for (const auto& [addr, link] : peers_) out.push_back(link->info());
  return out;
}

std::vector<HandshakeInfo> LinkManager::handshakes() const {
  std::vector<HandshakeInfo> out;
  out.reserve(outbound_.size());
  for (const auto& [addr, hs] : outbound_) {
    const auto config = statics_.find(addr);
    out.push_back(
        {.peer = addr,
         .key = config != statics_.end() ? std::optional(config->second.key) : std::nullopt,
         .to = hs.to,
         .ourIndex = hs.ourIndex,
         .startMs = hs.startMs,
         .resends = hs.resends});
  }
  return out;
}

std::vector<RetryInfo> LinkManager::retries() const {
  std::vector<RetryInfo> out;
  for (const auto& [addr, peer] : statics_) {
    if (peers_.contains(addr)) continue;
    if (peer.retry.count() == 0 && !peer.retry.dueMs()) continue;
    out.push_back({.peer = addr,
                   .retryCount = peer.retry.count(),
                   .dueMs = peer.retry.dueMs(),
                   .autoReconnect = peer.redial});
  }
  return out;
}

bool LinkManager::atMaxLinks() const {
  return config_.maxLinks != 0 && outbound_.size() + peers_.size() >= config_.maxLinks;
}

void LinkManager::sendDisconnect(ActiveLink& link, fmp::DisconnectReason reason) {
  const auto message = fmp::encodeDisconnect(reason);
  const auto packet = link.seal(message, clock_.nowMs());
  if (packet) io_.sendDatagram(link.current(), *packet);
}

std::unique_ptr<ActiveLink> LinkManager::makeLink(const crypto::PublicKey& remote,
                                                  const noise::Epoch& epoch,
                                                  const noise::TransportKeys& keys,
                                                  const TransportAddr& from, bool outbound,
                                                  uint32_t ourIndex, uint32_t theirIndex,
                                                  uint64_t nowMs) {
  const identity::NodeAddr addr = identity::NodeAddr::fromPublicKey(remote);
  int64_t jitter = 0;
  if (!noise::drawRekeyJitter(rng_, jitter)) jitter = 0;
  ActiveLinkSetup setup{
      .id = {&suite_, &localKey_, remote, localAddr_.bytes(), addr.bytes(), local_.epoch, epoch},
      .rekeyConfig = {{config_.rekeyEnabled, config_.rekeyAfterSecs, config_.rekeyAfterMessages},
                      config_.handshakeResendIntervalMs,
                      config_.handshakeMaxResends,
                      config_.handshakeTimeoutSecs * 1000},
      .jitterSecs = jitter,
      .key = remote,
      .addr = addr,
      .current = from,
      .outbound = outbound,
      .ourIndex = ourIndex,
      .theirIndex = theirIndex,
      .mmpMode = config_.mmpMode,
      .mmpOwdWindow = config_.mmpOwdWindow};
  return std::make_unique<ActiveLink>(std::move(setup), keys, indices_, nowMs);
}

void LinkManager::promote(std::unique_ptr<ActiveLink> link) {
  const identity::NodeAddr addr = link->addr();
  const auto it = statics_.find(addr);
  if (it != statics_.end()) {
    it->second.retry.clear();
    it->second.parked = false;  // up again: a later loss is redialed
  }
  ActiveLink& stored = *peers_.emplace(addr, std::move(link)).first->second;
  ++counters_.linksUp;
  io_.onLinkUp(stored.info());
}

void LinkManager::takeDown(const identity::NodeAddr& peer, LinkDownReason reason) {
  const auto it = peers_.find(peer);
  if (it == peers_.end()) return;
  const std::unique_ptr<ActiveLink> link = std::move(it->second);
  peers_.erase(it);
  link->releaseIndices();
  ++counters_.linksDown;
  // Losing a link (not our own decision) schedules a redial of a static peer.
  const bool lost = reason == LinkDownReason::DEAD || reason == LinkDownReason::REMOTE_DISCONNECT ||
                    reason == LinkDownReason::PEER_RESTART;
  const auto config = statics_.find(peer);
  if (lost && config != statics_.end()) {
    if (config->second.redial) {
      config->second.retry.onLinkLost(clock_.nowMs());
    } else {
      statics_.erase(config);
    }
  }
  io_.onLinkDown(link->info(), reason);
}

void LinkManager::cancelOutbound(const identity::NodeAddr& peer) {
  const auto it = outbound_.find(peer);
  if (it == outbound_.end()) return;
  indices_.release(it->second.to.transportId, it->second.ourIndex);
  outbound_.erase(it);
}

bool LinkManager::fromEstablishedPeer(const TransportAddr& from) const {
  for (const auto& [addr, link] : peers_) {
    if (link->current() == from) return true;
  }
  return false;
}

}  // namespace fips::router::link
