// SPDX-License-Identifier: MIT
// LinkManager handshakes (spec 02 §5): dialing, msg1 admission (token
// buckets, restart/rekey/duplicate classification, max_peers before msg2),
// msg2 completion and the cross-connection tie-break. Runs in fips-router;
// msg1/msg2 are untrusted, every refusal is dropped and counted.
#include "router/link/link-manager.h"
#include "router/noise/rekey-policy.h"

namespace fips::router::link {

void LinkManager::dial(const identity::NodeAddr& peer, StaticPeer& config, uint64_t nowMs) {
  if (atMaxLinks()) return;  // stays due; tried again on the next tick
  const TransportAddr to = config.addrs[config.nextAddr % config.addrs.size()];
  config.nextAddr = (config.nextAddr + 1) % config.addrs.size();
  dialAt(peer, config, to, nowMs);
}

void LinkManager::dialAt(const identity::NodeAddr& peer, StaticPeer& config,
                         const TransportAddr& to, uint64_t nowMs) {
  if (atMaxLinks()) return;  // stays due; tried again on the next tick
  const std::optional<uint32_t> index = indices_.allocate(rng_);
  if (!index) return;
  auto hs = startOutbound(local_, config.key, peer, *index, to, nowMs,
                          config_.handshakeResendIntervalMs, rng_);
  if (!hs) {
    indices_.release(to.transportId, *index);
    return;
  }
  indices_.bind(to.transportId, *index, IndexEntry{peer, IndexRole::HANDSHAKE});
  config.retry.markDialed();
  ++counters_.handshakesOut;
  io_.sendDatagram(to, hs->msg1);
  outbound_.insert_or_assign(peer, std::move(*hs));
}

void LinkManager::handleMsg1(const TransportAddr& from, std::span<const uint8_t> packet) {
  const uint64_t now = clock_.nowMs();
  // Rate limit before any crypto: per source and IPv6 /64, then the
  // established links' bucket for their addresses, the global one (with its
  // reserve for quiet sources) for every other.
  if (!admit(from, now)) return;
  const auto frame = fmp::decodeMsg1(packet);
  if (!frame.ok()) return drop(dropReasonFor(frame.error()));
  std::optional<InboundHello> hello = readMsg1(local_, frame->noiseMsg);
  if (!hello) return drop(DropReason::HANDSHAKE_FAILED);
  if (hello->remote == localKey_.publicKey()) return drop(DropReason::SELF_CONNECTION);
  const identity::NodeAddr peer = identity::NodeAddr::fromPublicKey(hello->remote);
  const auto it = peers_.find(peer);
  if (it == peers_.end()) return acceptInbound(from, frame.value(), *hello, now);
  ActiveLink& link = *it->second;
  if (link.remoteEpoch() != hello->remoteEpoch) {
    // A new startup epoch: the peer restarted, or someone replays an old
    // msg1. Answer it, and let the new session replace the old link only
    // once a frame on it authenticates (link-manager-restart.cpp).
    if (resendCandidateMsg2(peer, hello->remoteEpoch, from)) return;
    return holdCandidate(from, frame.value(), *hello, now);
  }
  if (!config_.rekeyEnabled || link.sessionAgeMs(now) < noise::REKEY_MIN_SESSION_AGE_MS) {
    // Same epoch, not a rekey: a duplicate. Resend our stored msg2, if we have one.
    ++counters_.duplicateMsg1;
    if (link.handshakeMsg2()) io_.sendDatagram(from, *link.handshakeMsg2());
    return;
  }
  if (!link.onRekeyMsg1(frame.value(), from, now, rng_, io_)) drop(DropReason::REKEY_REFUSED);
}

bool LinkManager::admit(const TransportAddr& from, uint64_t nowMs) {
  const Admission verdict =
      admission_.admit(from, nowMs, fromEstablishedPeer(from) ? &establishedBucket_ : nullptr);
  counters_.admissionSources = admission_.tracked();
  counters_.admissionEvictions = admission_.evictions();
  counters_.admissionReserveAdmits = admission_.reserveAdmits();
  switch (verdict) {
    case Admission::ADMITTED:
      return true;
    case Admission::SOURCE_LIMITED:
      drop(DropReason::MSG1_SOURCE_LIMITED);
      return false;
    case Admission::PREFIX_LIMITED:
      drop(DropReason::MSG1_PREFIX_LIMITED);
      return false;
    case Admission::GLOBAL_LIMITED:
      drop(DropReason::MSG1_GLOBAL_LIMITED);
      return false;
    case Admission::ESTABLISHED_LIMITED:
      drop(DropReason::RATE_LIMITED);
      return false;
  }
  return false;
}

void LinkManager::acceptInbound(const TransportAddr& from, const fmp::Msg1Frame& frame,
                                InboundHello& hello, uint64_t nowMs) {
  const identity::NodeAddr peer = identity::NodeAddr::fromPublicKey(hello.remote);
  const bool dialing = outbound_.contains(peer);
  // FIPS spec 02 §5 step 4: at max_peers a new peer is refused before msg2,
  // unless we are dialing it ourselves.
  if (config_.maxPeers != 0 && peers_.size() >= config_.maxPeers && !dialing) {
    return drop(DropReason::AT_MAX_PEERS);
  }
  if (!dialing && atMaxLinks()) return drop(DropReason::AT_MAX_LINKS);
  std::unique_ptr<ActiveLink> link = answerInbound(from, frame, hello, nowMs);
  if (!link) return;
  ++counters_.handshakesIn;
  promote(std::move(link));
}

std::unique_ptr<ActiveLink> LinkManager::answerInbound(const TransportAddr& from,
                                                       const fmp::Msg1Frame& frame,
                                                       InboundHello& hello, uint64_t nowMs) {
  const std::optional<uint32_t> index = indices_.allocate(rng_);
  if (!index) {
    drop(DropReason::HANDSHAKE_FAILED);
    return nullptr;
  }
  std::optional<InboundAnswer> answer = answerMsg1(hello, *index, frame.senderIdx, rng_);
  std::unique_ptr<ActiveLink> link;
  if (answer) {
    link = makeLink(hello.remote, hello.remoteEpoch, answer->keys, from, false, *index,
                    frame.senderIdx, nowMs);
  }
  if (!link) {
    indices_.release(from.transportId, *index);
    drop(DropReason::HANDSHAKE_FAILED);
    return nullptr;
  }
  io_.sendDatagram(from, answer->msg2);
  link->setHandshakeMsg2(answer->msg2);
  return link;
}

void LinkManager::handleMsg2(const TransportAddr& from, std::span<const uint8_t> packet) {
  const auto frame = fmp::decodeMsg2(packet);
  if (!frame.ok()) return drop(dropReasonFor(frame.error()));
  // FIPS spec 02 §4: msg2 is matched to our msg1 by its receiver_idx.
  const IndexEntry* entry = indices_.find(from.transportId, frame->receiverIdx);
  // A young session answers a rekey msg1 with its stored handshake msg2
  // (a duplicate, spec 02 §8), whose index is ours no longer: unmatched.
  if (entry == nullptr || entry->role == IndexRole::SESSION) {
    return drop(DropReason::UNMATCHED_MSG2);
  }
  const identity::NodeAddr peer = entry->peer;
  if (entry->role == IndexRole::REKEY) {
    const auto it = peers_.find(peer);
    if (it == peers_.end() || !it->second->onRekeyMsg2(frame.value(), clock_.nowMs())) {
      drop(DropReason::HANDSHAKE_FAILED);
    }
    return;
  }
  const auto it = outbound_.find(peer);
  if (it == outbound_.end() || it->second.ourIndex != frame->receiverIdx) {
    return drop(DropReason::UNMATCHED_MSG2);
  }
  // <- e, ee, se, {epoch}; a forged msg2 leaves the handshake untouched.
  if (it->second.hs.readMessage(frame->noiseMsg) != noise::HandshakeStatus::OK) {
    return drop(DropReason::HANDSHAKE_FAILED);
  }
  OutboundHandshake done = std::move(it->second);
  outbound_.erase(it);
  completeOutbound(std::move(done), frame->senderIdx, from, clock_.nowMs());
}

void LinkManager::onFrameForHandshake(const identity::NodeAddr& peer) {
  drop(DropReason::HANDSHAKE_PENDING);  // no keys for it until msg2 arrives
  const auto it = outbound_.find(peer);
  if (it == outbound_.end()) return;
  OutboundHandshake& hs = it->second;
  const uint64_t now = clock_.nowMs();
  // Only the peer's msg2 can give the index keys; the reference waits for
  // its resend timer. Resending msg1 now is a duplicate the responder
  // answers with its stored msg2 (spec 02 §5 responder step 4, as the
  // reference does): the wire is unchanged, only the timing (a departure).
  // Sent to the address we dialed, never to the frame's unauthenticated source.
  if (hs.frameResends >= config_.handshakeMaxResends) return;
  if (hs.lastFrameResendMs && now - *hs.lastFrameResendMs < FRAME_RESEND_GAP_MS) return;
  hs.lastFrameResendMs = now;
  ++hs.frameResends;
  ++counters_.msg1FrameResends;
  io_.sendDatagram(hs.to, hs.msg1);
}

void LinkManager::completeOutbound(OutboundHandshake done, uint32_t theirIndex,
                                   const TransportAddr& from, uint64_t nowMs) {
  const std::optional<noise::TransportKeys> keys = done.hs.split();
  const auto it = peers_.find(done.peer);
  if (it != peers_.end() && it->second->remoteEpoch() == *done.hs.remoteEpoch()) {
    // Cross-connection (spec 02 §5): the smaller NodeAddr keeps its outbound.
    if (keys && localAddr_ < done.peer) {
      it->second->replaceSession(*keys, done.ourIndex, theirIndex, nowMs);
      io_.onLinkSwapped(it->second->info());
    } else {
      indices_.release(done.to.transportId, done.ourIndex);
    }
    return;
  }
  // A different epoch on the new connection wins over the tie-break (restart).
  if (it != peers_.end()) takeDown(done.peer, LinkDownReason::PEER_RESTART);
  std::unique_ptr<ActiveLink> link;
  if (keys && (config_.maxPeers == 0 || peers_.size() < config_.maxPeers)) {
    link = makeLink(*done.hs.remoteStatic(), *done.hs.remoteEpoch(), *keys, from, true,
                    done.ourIndex, theirIndex, nowMs);
  }
  if (!link) {
    indices_.release(done.to.transportId, done.ourIndex);
    return drop(DropReason::AT_MAX_PEERS);
  }
  promote(std::move(link));
  // Key confirmation at once: a responder holding us as a restart candidate
  // switches to this session on the first frame it can open.
  sendLinkMessage(done.peer, fmp::LinkMessageType::HEARTBEAT, {});
}

}  // namespace fips::router::link
