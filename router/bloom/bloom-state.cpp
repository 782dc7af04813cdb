// SPDX-License-Identifier: MIT
// BloomState: inbound filter acceptance, outgoing filters with split
// horizon, marks and debounced sends (FIPS spec 03 §4.4, reference
// src/proto/bloom/state.rs and src/node/bloom.rs). Runs in fips-router;
// announce bodies are untrusted.
#include "router/bloom/bloom-state.h"

#include <algorithm>

namespace fips::router::bloom {

const char* toString(BloomVerdict verdict) {
  switch (verdict) {
    case BloomVerdict::ACCEPTED:
      return "accepted";
    case BloomVerdict::DECODE_ERROR:
      return "decode_error";
    case BloomVerdict::UNKNOWN_PEER:
      return "unknown_peer";
    case BloomVerdict::STALE:
      return "stale";
    case BloomVerdict::FPR_EXCEEDED:
      return "fpr_exceeded";
  }
  return "unknown";
}

void BloomState::addPeer(const NodeAddr& peer) {
  Peer fresh;
  fresh.pending = true;
  peers_[peer] = std::move(fresh);
}

void BloomState::removePeer(const NodeAddr& peer) {
  peers_.erase(peer);
  markAll();
}

std::optional<BloomVerdict> BloomState::check(const NodeAddr& from,
                                              const FilterAnnounce& announce) const {
  const auto it = peers_.find(from);
  if (it == peers_.end()) return BloomVerdict::UNKNOWN_PEER;
  if (announce.sequence <= it->second.lastSeq) return BloomVerdict::STALE;
  if (announce.filter.fpr() > config_.maxInboundFpr) return BloomVerdict::FPR_EXCEEDED;
  return std::nullopt;
}

BloomReceiveResult BloomState::onFilterAnnounce(const NodeAddr& from, std::span<const uint8_t> body,
                                                const TreePeerFn& isTreePeer) {
  BloomReceiveResult result;
  const auto decoded = decodeFilterAnnounce(body);
  if (const auto* e = std::get_if<FilterAnnounceError>(&decoded)) {
    result.verdict = BloomVerdict::DECODE_ERROR;
    result.decodeError = *e;
  } else if (const auto v = check(from, std::get<FilterAnnounce>(decoded))) {
    result.verdict = *v;
  }
  ++counters_.verdicts[static_cast<size_t>(result.verdict)];
  if (result.verdict != BloomVerdict::ACCEPTED) return result;

  const auto& announce = std::get<FilterAnnounce>(decoded);
  auto& peer = peers_.at(from);
  peer.lastSeq = announce.sequence;
  peer.inbound = announce.filter;
  markChanged(from, isTreePeer);
  return result;
}

void BloomState::markAll() {
  for (auto& [addr, peer] : peers_) peer.pending = true;
}

void BloomState::markChanged(const NodeAddr& except, const TreePeerFn& isTreePeer) {
  const auto outgoing = outgoingFilters(isTreePeer);
  for (auto& [addr, peer] : peers_) {
    if (addr == except || peer.pending) continue;
    if (!peer.lastSent || *peer.lastSent != outgoing.at(addr)) peer.pending = true;
  }
}

std::vector<FilterSend> BloomState::tick(uint64_t nowMs, const TreePeerFn& isTreePeer) {
  std::vector<FilterSend> out;
  std::optional<std::map<NodeAddr, BloomFilter>> outgoing;
  for (auto& [addr, peer] : peers_) {
    const uint64_t sinceMs = peer.lastSentMs ? nowMs - std::min(nowMs, *peer.lastSentMs) : 0;
    const bool confirm = !peer.pending && peer.confirmDue && sinceMs >= config_.confirmDelayMs;
    if (!peer.pending && !confirm) continue;
    if (peer.lastSentMs && sinceMs < config_.updateDebounceMs) continue;
    if (!outgoing) outgoing = outgoingFilters(isTreePeer);
    peer.confirmDue = !confirm && config_.confirmDelayMs > 0;
    if (confirm) ++counters_.confirmations;
    FilterAnnounce announce{.sequence = ++sequence_, .filter = outgoing->at(addr)};
    if (announce.filter.fpr() > config_.maxInboundFpr) ++counters_.outgoingOverCap;
    out.push_back(FilterSend{addr, encodeFilterAnnounce(announce)});
    ++counters_.sent;
    peer.lastSent = announce.filter;
    peer.lastSentMs = nowMs;
    peer.pending = false;
  }
  return out;
}

std::map<NodeAddr, BloomFilter> BloomState::outgoingFilters(const TreePeerFn& isTreePeer) const {
  // Split horizon for every peer in O(peers) merges: a contributing tree
  // peer gets self ∪ (prefix before it) ∪ (suffix after it); everyone else
  // gets self ∪ all contributors.
  std::vector<std::pair<NodeAddr, const BloomFilter*>> contributors;
  for (const auto& [addr, p] : peers_) {
    if (p.inbound && isTreePeer(addr)) contributors.emplace_back(addr, &*p.inbound);
  }
  BloomFilter base;
  base.insert(self_);
  std::vector<BloomFilter> suffix(contributors.size() + 1, base);
  for (size_t i = contributors.size(); i > 0; --i) {
    suffix[i - 1] = suffix[i];
    suffix[i - 1].merge(*contributors[i - 1].second);
  }
  std::map<NodeAddr, BloomFilter> out;
  for (const auto& [addr, p] : peers_) out.emplace(addr, suffix[0]);
  BloomFilter prefix = base;
  for (size_t i = 0; i < contributors.size(); ++i) {
    BloomFilter filter = prefix;
    filter.merge(suffix[i + 1]);
    out.insert_or_assign(contributors[i].first, filter);
    prefix.merge(*contributors[i].second);
  }
  return out;
}

BloomFilter BloomState::outgoingFilter(const NodeAddr& peer, const TreePeerFn& isTreePeer) const {
  BloomFilter filter;
  filter.insert(self_);
  for (const auto& [addr, p] : peers_) {
    if (addr != peer && p.inbound && isTreePeer(addr)) filter.merge(*p.inbound);
  }
  return filter;
}

bool BloomState::advertised(const NodeAddr& peer, const NodeAddr& addr) const {
  const auto it = peers_.find(peer);
  return it != peers_.end() && it->second.lastSent && it->second.lastSent->contains(addr);
}

void BloomState::repair(const NodeAddr& peer) {
  const auto it = peers_.find(peer);
  if (it == peers_.end() || it->second.pending) return;
  it->second.pending = true;
  ++counters_.repairs;
}

const BloomFilter* BloomState::inboundFilter(const NodeAddr& peer) const {
  const auto it = peers_.find(peer);
  if (it == peers_.end() || !it->second.inbound) return nullptr;
  return &*it->second.inbound;
}

std::vector<NodeAddr> BloomState::peersContaining(const NodeAddr& addr) const {
  std::vector<NodeAddr> out;
  for (const auto& [peer, p] : peers_) {
    if (p.inbound && p.inbound->contains(addr)) out.push_back(peer);
  }
  return out;
}

bool BloomState::peerContains(const NodeAddr& peer, const NodeAddr& addr) const {
  const auto* f = inboundFilter(peer);
  return f != nullptr && f->contains(addr);
}

bool BloomState::pending(const NodeAddr& peer) const {
  const auto it = peers_.find(peer);
  return it != peers_.end() && it->second.pending;
}

}  // namespace fips::router::bloom
