// SPDX-License-Identifier: MIT
// Received LookupRequests and LookupResponses: dedup and reverse path,
// answering for our own address, transit forwarding, and verification of the
// answers to our own lookups (FIPS spec 03 §5.3). Runs in fips-router; the
// bodies are untrusted peer input.
#include <algorithm>

#include "router/lookup/lookup-state.h"

namespace fips::router::lookup {

// Target == us: sign our current coordinates and answer the peer the
// request came from, path_mtu starting at 0xFFFF min-folded with that link.
void LookupState::respond(const routing::MeshView& view, const LookupRequest& request,
                          const NodeAddr& to, LookupActions& out) {
  const stp::Coordinates& mine = view.selfCoords();
  const auto proof =
      signLookupProof(ctx_, identity_, rng_, request.requestId, request.target, mine);
  if (!proof) {
    ++counters_.signFailed;
    return;
  }
  LookupResponse response{.requestId = request.requestId,
                          .target = request.target,
                          .pathMtu = UINT16_MAX,
                          .targetCoords = mine,
                          .proof = *proof};
  if (const routing::PeerView* peer = routing::findPeer(view, to)) {
    response.pathMtu = std::min(response.pathMtu, peer->linkMtu);
  }
  out.sends.push_back(LookupSend{.peers = {to}, .message = encodeLookupResponse(response)});
}

// ttl − 1, then every tree peer whose filter contains the target, else every
// non-tree peer whose filter does (fallback).
void LookupState::forwardRequest(const routing::MeshView& view, LookupRequest request,
                                 LookupActions& out) {
  --request.ttl;
  LookupSend tree;
  LookupSend fallback;
  for (const routing::PeerView& peer : view.peers()) {
    if (!view.mayReach(peer, request.target)) continue;
    (peer.treePeer ? tree : fallback).peers.push_back(peer.addr);
  }
  LookupSend& send = tree.peers.empty() ? fallback : tree;
  if (send.peers.empty()) {
    ++counters_.reqNoTreePeer;
    return;
  }
  ++counters_.reqForwarded;
  if (tree.peers.empty()) ++counters_.reqFallbackForwarded;
  send.message = encodeLookupRequest(request);
  out.sends.push_back(std::move(send));
}

void LookupState::onRequest(const routing::MeshView& view, const NodeAddr& from,
                            std::span<const uint8_t> body, uint64_t nowMs, LookupActions& out) {
  ++counters_.reqReceived;
  auto decoded = decodeLookupRequest(body);
  if (!decoded.ok()) {
    ++counters_.reqDecodeError;
    return;
  }
  LookupRequest& request = decoded.value();
  // Departure from the reference: our own request back from a peer (it went
  // round a cycle of overlapping filters) is dropped. Recorded as transit,
  // it would make us forward the answer to that peer instead of accepting
  // it: the reference loses such lookups.
  if (request.origin == view.selfAddr()) {
    ++counters_.reqOwnReturned;
    return;
  }
  if (request.target != view.selfAddr()) {
    out.routedHere.push_back({.from = from, .target = request.target});
  }
  switch (recent_.record(request.requestId, from, nowMs)) {
    case RecentRequests::Record::DUPLICATE:
      ++counters_.reqDuplicate;
      return;
    case RecentRequests::Record::FULL:
      ++counters_.reqDedupCacheFull;
      return;
    case RecentRequests::Record::RECORDED:
      break;
  }
  if (request.target == view.selfAddr()) {
    ++counters_.reqTargetIsUs;
    respond(view, request, from, out);
    return;
  }
  if (request.ttl == 0) {
    ++counters_.reqTtlExhausted;
    return;
  }
  // Departure from the reference, which keys this limit by target alone:
  // lookups for one target from different origins within the interval then
  // drop each other at every node their paths share, and with the origins'
  // retries colliding too, some never get through (a static 1,000-node mesh
  // lost 14 of 1,394 lookups so, see docs/STATUS.md). Keyed by origin and
  // target, it still collapses one origin's rapid fresh request_ids.
  if (!forwardLimiter_.allow(request.origin, request.target, nowMs)) {
    ++counters_.reqForwardRateLimited;
    return;
  }
  forwardRequest(view, std::move(request), out);
}

// Our own lookup answered: the proof must verify with the target's key from
// the identity cache (looked up by its 15-byte prefix).
void LookupState::accept(routing::IdentityCache& ids, routing::CoordCache& coords,
                         const LookupResponse& response, uint64_t nowMs, LookupActions& out) {
  const routing::CachedIdentity* target = ids.findByPrefix(routing::fipsPrefix(response.target));
  if (target == nullptr) {
    ++counters_.respIdentityMiss;
    return;
  }
  if (!verifyLookupProof(ctx_, target->key, response)) {
    ++counters_.respProofFailed;
    return;
  }
  ++counters_.respAccepted;
  backoff_.erase(response.target);
  pending_.erase(response.target);
  if (response.pathMtu >= MIN_ACTIONABLE_PATH_MTU) {
    coords.insertWithPathMtu(response.target, response.targetCoords, nowMs, response.pathMtu);
  } else {
    ++counters_.respMtuBelowFloor;
    coords.insert(response.target, response.targetCoords, nowMs);
  }
  out.resolved.push_back(LookupResolved{
      .target = response.target, .requestId = response.requestId, .pathMtu = response.pathMtu});
}

void LookupState::onResponse(const routing::MeshView& view, routing::IdentityCache& ids,
                             routing::CoordCache& coords, std::span<const uint8_t> body,
                             uint64_t nowMs, LookupActions& out) {
  ++counters_.respReceived;
  auto decoded = decodeLookupResponse(body);
  if (!decoded.ok()) {
    ++counters_.respDecodeError;
    return;
  }
  LookupResponse& response = decoded.value();
  if (!recent_.isKnown(response.requestId)) {
    accept(ids, coords, response, nowMs, out);
    return;
  }
  const auto back = recent_.takeReversePath(response.requestId);
  if (!back) {
    ++counters_.respAlreadyForwarded;
    return;
  }
  const routing::PeerView* peer = routing::findPeer(view, *back);
  if (peer == nullptr) {
    ++counters_.respNoRoute;
    return;
  }
  ++counters_.respForwarded;
  response.pathMtu = std::min(response.pathMtu, peer->linkMtu);
  out.sends.push_back(LookupSend{.peers = {*back}, .message = encodeLookupResponse(response)});
}

}  // namespace fips::router::lookup
