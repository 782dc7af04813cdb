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
  for (auto& [addr, peer] : peers_) {
    if (addr == except || peer.pending) continue;
    if (!peer.lastSent || *peer.lastSent != outgoingFilter(addr, isTreePeer)) peer.pending = true;
  }
}

std::vector<FilterSend> BloomState::tick(uint64_t nowMs, const TreePeerFn& isTreePeer) {
  std::vector<FilterSend> out;
  for (auto& [addr, peer] : peers_) {
    if (!peer.pending) continue;
    if (peer.lastSentMs && nowMs - std::min(nowMs, *peer.lastSentMs) < config_.updateDebounceMs) {
      continue;
    }
    FilterAnnounce announce{.sequence = ++sequence_, .filter = outgoingFilter(addr, isTreePeer)};
    if (announce.filter.fpr() > config_.maxInboundFpr) ++counters_.outgoingOverCap;
    out.push_back(FilterSend{addr, encodeFilterAnnounce(announce)});
    ++counters_.sent;
    peer.lastSent = announce.filter;
    peer.lastSentMs = nowMs;
    peer.pending = false;
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
