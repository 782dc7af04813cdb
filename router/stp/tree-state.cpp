// SPDX-License-Identifier: MIT
// TreeState: peers, announce receive path and announce scheduling (FIPS spec
// 03 §2, reference src/node/tree.rs and src/proto/stp/state.rs). Parent
// selection is in tree-parent.cpp. Runs in fips-router; announce bodies are
// untrusted.
#include "router/stp/tree-state.h"

#include <algorithm>

#include "lib/crypto/sha256.h"

namespace fips::router::stp {

namespace {

// NodeAddr = SHA-256(x-only key)[0..16] (spec 01 §3.1).
NodeAddr addrOf(const crypto::SecretKey& key) {
  const auto digest = crypto::sha256(key.publicKey().xOnly());
  std::array<uint8_t, NodeAddr::SIZE> bytes{};
  std::copy_n(digest.begin(), bytes.size(), bytes.begin());
  return NodeAddr(bytes);
}

}  // namespace

const char* toString(TreeVerdict verdict) {
  switch (verdict) {
    case TreeVerdict::ACCEPTED:
      return "accepted";
    case TreeVerdict::DECODE_ERROR:
      return "decode_error";
    case TreeVerdict::UNKNOWN_PEER:
      return "unknown_peer";
    case TreeVerdict::ADDR_MISMATCH:
      return "addr_mismatch";
    case TreeVerdict::BAD_SIGNATURE:
      return "bad_signature";
    case TreeVerdict::BAD_ANCESTRY:
      return "bad_ancestry";
    case TreeVerdict::STALE:
      return "stale";
  }
  return "unknown";
}

const char* toString(TreeDecision decision) {
  switch (decision) {
    case TreeDecision::NO_CHANGE:
      return "no_change";
    case TreeDecision::SWITCH:
      return "switch";
    case TreeDecision::SELF_ROOT:
      return "self_root";
    case TreeDecision::LOOP_DROP:
      return "loop_drop";
    case TreeDecision::ANCESTRY_UPDATE:
      return "ancestry_update";
    case TreeDecision::PARENT_LOST:
      return "parent_lost";
    case TreeDecision::PERIODIC_REBROADCAST:
      return "periodic_rebroadcast";
  }
  return "unknown";
}

TreeState::TreeState(const crypto::Secp256k1Context& ctx, const crypto::SecretKey& key,
                     const TreeConfig& config, crypto::Rng& rng, TreeNow now)
    : ctx_(ctx),
      key_(key),
      rng_(rng),
      config_(config),
      self_(addrOf(key)),
      decl_{.node = self_, .parent = self_, .sequence = 1, .timestamp = now.unixSecs},
      root_(self_),
      flap_(config) {
  recomputeCoords();
  sign();
}

std::optional<NodeAddr> TreeState::parent() const {
  if (isRoot()) return std::nullopt;
  return decl_.parent;
}

std::vector<NodeAddr> TreeState::peers() const {
  std::vector<NodeAddr> out;
  out.reserve(peers_.size());
  for (const auto& [addr, peer] : peers_) out.push_back(addr);
  return out;
}

const Coordinates* TreeState::peerCoordinates(const NodeAddr& peer) const {
  const auto it = peers_.find(peer);
  if (it == peers_.end() || !it->second.declaration) return nullptr;
  return &it->second.coords;
}

const ParentDeclaration* TreeState::peerDeclaration(const NodeAddr& peer) const {
  const auto it = peers_.find(peer);
  if (it == peers_.end() || !it->second.declaration) return nullptr;
  return &*it->second.declaration;
}

bool TreeState::isTreePeer(const NodeAddr& peer) const {
  if (!isRoot() && decl_.parent == peer) return true;
  const auto* decl = peerDeclaration(peer);
  return decl != nullptr && decl->parent == self_;
}

std::vector<uint8_t> TreeState::announceBody() const {
  return encodeTreeAnnounce(
      TreeAnnounce{.declaration = decl_, .ancestry = ancestry_, .signature = signature_});
}

TreeOutput TreeState::addPeer(const NodeAddr& peer, std::span<const uint8_t, 32> xonlyKey,
                              TreeNow now) {
  Peer fresh;
  std::copy(xonlyKey.begin(), xonlyKey.end(), fresh.xonly.begin());
  peers_[peer] = std::move(fresh);
  TreeOutput out;
  announce(peer, now.monoMs, out);
  return out;
}

TreeOutput TreeState::removePeer(const NodeAddr& peer, const LinkCosts& costs, TreeNow now) {
  TreeOutput out;
  const bool wasParent = !isRoot() && decl_.parent == peer;
  if (peers_.erase(peer) == 0 || !wasParent) return out;
  ++counters_.parentLosses;
  const Coordinates before = coords_;
  distrustPeersAfterLoss(peer);
  recoverParent(costs, now);
  out.decision = TreeDecision::PARENT_LOST;
  out.parentChanged = true;
  out.coordsChanged = coords_ != before;
  out.invalidateViaSelf = true;
  out.invalidateOtherRoots = true;
  if (sign()) markAllPending();
  return out;
}

std::optional<TreeVerdict> TreeState::check(const NodeAddr& from, const TreeAnnounce& announce,
                                            TreeReceiveResult& result) const {
  const auto it = peers_.find(from);
  if (it == peers_.end()) return TreeVerdict::UNKNOWN_PEER;
  if (announce.declaration.node != from) return TreeVerdict::ADDR_MISMATCH;
  if (!verifyDeclaration(ctx_, it->second.xonly, announce.declaration, announce.signature)) {
    return TreeVerdict::BAD_SIGNATURE;
  }
  result.ancestryError = validateSemantics(announce);
  if (result.ancestryError) return TreeVerdict::BAD_ANCESTRY;
  // A distrusted peer's unchanged declaration (same sequence) is accepted:
  // it confirms the stored path after our parent loss.
  const auto& stored = it->second.declaration;
  const uint64_t seq = announce.declaration.sequence;
  if (stored && (seq < stored->sequence || (seq == stored->sequence && !it->second.distrusted))) {
    return TreeVerdict::STALE;
  }
  return std::nullopt;
}

TreeReceiveResult TreeState::onTreeAnnounce(const NodeAddr& from, std::span<const uint8_t> body,
                                            const LinkCosts& costs, TreeNow now) {
  TreeReceiveResult result;
  auto decoded = decodeTreeAnnounce(body);
  if (const auto* e = std::get_if<TreeAnnounceError>(&decoded)) {
    result.verdict = TreeVerdict::DECODE_ERROR;
    result.decodeError = *e;
  } else if (const auto v = check(from, std::get<TreeAnnounce>(decoded), result)) {
    result.verdict = *v;
  }
  ++counters_.verdicts[static_cast<size_t>(result.verdict)];
  if (result.verdict != TreeVerdict::ACCEPTED) return result;

  auto& msg = std::get<TreeAnnounce>(decoded);
  const bool wasTreePeer = isTreePeer(from);
  auto& peer = peers_.at(from);
  peer.coords = toCoordinates(msg.ancestry);
  peer.ancestry = std::move(msg.ancestry);
  peer.declaration = msg.declaration;
  peer.distrusted = false;

  // Echo rule (§2.1 step 7): a peer on a worse root learns ours at once.
  if (*peer.coords.root() > root_) announce(from, now.monoMs, result.out);
  classify(from, costs, now, result.out);
  // A child that attaches or leaves changes what our other peers should hear.
  if (isTreePeer(from) != wasTreePeer) result.out.bloomRecheck = true;
  return result;
}

TreeOutput TreeState::tick(const LinkCosts& costs, TreeNow now) {
  TreeOutput out;
  flushPending(now.monoMs, out);
  if (config_.reevalIntervalSecs == 0 || peers_.size() < 2) return out;
  const uint64_t intervalMs = config_.reevalIntervalSecs * 1000;
  if (lastReevalMs_ && now.monoMs - std::min(now.monoMs, *lastReevalMs_) < intervalMs) return out;
  lastReevalMs_ = now.monoMs;
  classifyPeriodic(costs, now, out);
  return out;
}

bool TreeState::sign() {
  const auto sig = signDeclaration(ctx_, key_, decl_, rng_);
  signed_ = sig.has_value();
  if (!signed_) {
    ++counters_.signFailures;
    return false;
  }
  signature_ = *sig;
  return true;
}

void TreeState::announce(const NodeAddr& peer, uint64_t nowMs, TreeOutput& out) {
  auto it = peers_.find(peer);
  if (it == peers_.end() || !signed_) return;
  // Already in this output: the caller sends the latest body once.
  if (std::find(out.announceTo.begin(), out.announceTo.end(), peer) != out.announceTo.end()) {
    return;
  }
  auto& p = it->second;
  const bool allowed = !p.lastAnnounceMs ||
                       nowMs - std::min(nowMs, *p.lastAnnounceMs) >= config_.announceMinIntervalMs;
  if (!allowed) {
    p.announcePending = true;
    ++counters_.rateLimited;
    return;
  }
  out.announceTo.push_back(peer);
  ++counters_.announcesSent;
  p.lastAnnounceMs = nowMs;
  p.announcePending = false;
}

void TreeState::announceAll(uint64_t nowMs, TreeOutput& out) {
  for (const auto& [addr, peer] : peers_) announce(addr, nowMs, out);
}

void TreeState::markAllPending() {
  for (auto& [addr, peer] : peers_) peer.announcePending = true;
}

void TreeState::flushPending(uint64_t nowMs, TreeOutput& out) {
  for (auto& [addr, peer] : peers_) {
    if (!peer.announcePending) continue;
    if (peer.lastAnnounceMs &&
        nowMs - std::min(nowMs, *peer.lastAnnounceMs) < config_.announceMinIntervalMs) {
      continue;
    }
    announce(addr, nowMs, out);
  }
}

}  // namespace fips::router::stp
