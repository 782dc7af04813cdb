// SPDX-License-Identifier: MIT
// LinkManager restart candidates. A msg1 with a new startup epoch for a peer
// we have a link with means the peer restarted (spec 02 §5) -- or that
// someone replays a msg1 captured from an earlier run of that peer, which
// Noise IK alone cannot tell apart. The reference tears the old link down
// at once, so a replay kills a working link. Here the msg1 is answered and
// the answer held as a candidate; the old link is replaced only when a frame
// on the new session authenticates (which needs the initiator's ephemeral
// key, so only the real peer can do it). A restarted initiator sends a
// Heartbeat right after msg2 for that purpose. Runs in fips-router; all
// input is untrusted.
#include "router/link/link-manager.h"

namespace fips::router::link {

void LinkManager::holdCandidate(const TransportAddr& from, const fmp::Msg1Frame& frame,
                                InboundHello& hello, uint64_t nowMs) {
  const identity::NodeAddr peer = identity::NodeAddr::fromPublicKey(hello.remote);
  std::unique_ptr<ActiveLink> link = answerInbound(from, frame, hello, nowMs);
  if (!link) return;
  indices_.bind(from.transportId, link->info().ourIndex, IndexEntry{peer, IndexRole::CANDIDATE});
  auto old = candidates_.find(peer);
  if (old != candidates_.end()) old->second.link->releaseIndices();
  Candidate& held = candidates_[peer];
  held.link = std::move(link);
  held.epoch = hello.remoteEpoch;
  held.expiresMs = nowMs + config_.handshakeTimeoutSecs * 1000;
}

bool LinkManager::resendCandidateMsg2(const identity::NodeAddr& peer, const noise::Epoch& epoch,
                                      const TransportAddr& from) {
  const auto it = candidates_.find(peer);
  if (it == candidates_.end() || it->second.epoch != epoch) return false;
  ++counters_.duplicateMsg1;
  io_.sendDatagram(from, *it->second.link->handshakeMsg2());
  return true;
}

void LinkManager::confirmCandidate(const identity::NodeAddr& peer,
                                   const fmp::EstablishedFrame& frame, const TransportAddr& from) {
  const auto it = candidates_.find(peer);
  if (it == candidates_.end()) return drop(DropReason::UNKNOWN_INDEX);
  plaintext_.resize(frame.header.payloadLen);
  const noise::OpenStatus status = it->second.link->open(frame, from, plaintext_, clock_.nowMs());
  if (status != noise::OpenStatus::OK) return drop(dropReasonFor(status));
  std::unique_ptr<ActiveLink> link = std::move(it->second.link);
  candidates_.erase(it);
  takeDown(peer, LinkDownReason::PEER_RESTART);
  indices_.bind(from.transportId, frame.header.receiverIdx, IndexEntry{peer, IndexRole::SESSION});
  promote(std::move(link));
  dispatchMessage(peer, frame, plaintext_);
}

void LinkManager::expireCandidates(uint64_t nowMs) {
  for (auto it = candidates_.begin(); it != candidates_.end();) {
    if (nowMs < it->second.expiresMs) {
      ++it;
      continue;
    }
    it->second.link->releaseIndices();
    it = candidates_.erase(it);
  }
}

}  // namespace fips::router::link
