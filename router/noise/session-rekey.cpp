// SPDX-License-Identifier: MIT
// FSP session rekey state machine (see session-rekey.h). Runs in fips-router;
// handshake messages and frames are untrusted and only ever dropped.
#include "router/noise/session-rekey.h"

#include <algorithm>

namespace fips::router::noise {

SessionRekey::SessionRekey(const SessionPeerIdentity& id, const SessionRekeyConfig& cfg,
                           const TransportKeys& initial, uint64_t nowMs, int64_t jitterSecs)
    : id_(id),
      cfg_(cfg),
      keys_(RekeyLayer::SESSION, initial),
      sessionStartMs_(nowMs),
      jitterSecs_(jitterSecs) {}

// Bookkeeping after pending became current (timer cutover or trial decrypt).
// Any handshake still armed is dropped with it, as in the reference.
void SessionRekey::promoted(uint64_t nowMs) {
  sessionStartMs_ = nowMs;
  drainAnchorMs_ = nowMs;
  redrawJitter_ = true;
  handshake_.reset();
  pendingIsOurs_ = false;
  ++completedRekeys_;
}

// Drops the whole cycle: handshake, pending keys and the retained msg3. The
// peers stay on their current keys until a later cycle completes.
void SessionRekey::abandonRekey() {
  handshake_.reset();
  keys_.dropPending();
  pendingIsOurs_ = false;
  retainedMsg3_.reset();
  msg3Resends_ = 0;
}

bool SessionRekey::cutoverDue(uint64_t nowMs) const {
  // FIPS spec 01 §8.2: the initiator cuts over FSP_CUTOVER_DELAY_MS after msg3.
  return keys_.hasPending() && pendingIsOurs_ && !handshake_ &&
         nowMs - pendingSinceMs_ >= SESSION_CUTOVER_DELAY_MS;
}

bool SessionRekey::handshakeExpired(uint64_t nowMs) const {
  if (!handshake_) return false;
  // Departure: the reference never expires a handshake we started, so a
  // lost msg1/msg2 would block our own rekeys for the session's lifetime.
  if (handshakeIsOurs_) return nowMs - handshakeStartMs_ >= cfg_.handshakeTimeoutMs;
  return lastPeerRekeyMs_ && nowMs - *lastPeerRekeyMs_ > cfg_.handshakeTimeoutMs;
}

bool SessionRekey::pendingOutranks(uint64_t nowMs) const {
  // A completed rekey vetoes a new msg1 until it has waited a full idle
  // timeout for the cutover (then the peer probably restarted).
  return keys_.hasPending() && nowMs - pendingSinceMs_ <= cfg_.idleTimeoutMs;
}

void SessionRekey::resendMsg3(uint64_t nowMs, SessionRekeyTick& out) {
  if (!retainedMsg3_ || nowMs < nextMsg3ResendMs_) return;
  if (msg3Resends_ >= cfg_.maxResends) {
    ++stats_.abandoned;
    abandonRekey();
    return;
  }
  ++msg3Resends_;
  nextMsg3ResendMs_ = nowMs + (cfg_.resendIntervalMs << std::min<uint32_t>(msg3Resends_, 20));
  out.msg3 = retainedMsg3_;
}

std::optional<XkMsg1> SessionRekey::startRekey(uint64_t nowMs, crypto::Rng& rng) {
  Handshake hs =
      Handshake::initiator(FipsPattern::XK, *id_.suite, id_.local->clone(), id_.remote, id_.epoch);
  XkMsg1 msg1{};
  if (hs.writeMessage(msg1, rng) != HandshakeStatus::OK) return std::nullopt;  // -> e, es
  handshake_.emplace(std::move(hs));
  handshakeIsOurs_ = true;
  handshakeStartMs_ = nowMs;
  return msg1;
}

std::optional<XkMsg1> SessionRekey::reconfirm(uint64_t nowMs, crypto::Rng& rng) {
  if (keys_.hasPending() || retainedMsg3_ || (handshake_ && !handshakeIsOurs_)) {
    return std::nullopt;
  }
  auto msg1 = startRekey(nowMs, rng);
  if (msg1) ++stats_.reconfirms;
  reconfirming_ = msg1.has_value();
  return msg1;
}

SessionRekeyTick SessionRekey::tick(uint64_t nowMs, crypto::Rng& rng) {
  if (redrawJitter_ && drawRekeyJitter(rng, jitterSecs_)) redrawJitter_ = false;
  SessionRekeyTick out;
  // Reference order: msg3 retransmission first, then the rekey sweep.
  resendMsg3(nowMs, out);
  if (cutoverDue(nowMs)) {
    out.cutOver = keys_.cutover(nowMs);
    promoted(nowMs);
    return out;
  }
  if (keys_.hasPrevious() && nowMs - drainAnchorMs_ >= DRAIN_WINDOW_MS) keys_.expireDrain(nowMs);
  if (handshakeExpired(nowMs)) {
    // Only the handshake: a pending beside it may be what the peer uses.
    handshake_.reset();
    ++stats_.expired;
    return out;
  }
  const bool dampened = lastPeerRekeyMs_ && nowMs - *lastPeerRekeyMs_ < REKEY_DAMPENING_MS;
  if (!cfg_.rekey.enabled || handshake_ || keys_.hasPending() || retainedMsg3_ || dampened ||
      !rekeyDue(cfg_.rekey, nowMs - sessionStartMs_, jitterSecs_, keys_.sendCounter())) {
    return out;
  }
  reconfirming_ = false;
  out.msg1 = startRekey(nowMs, rng);
  return out;
}

std::optional<XkMsg2> SessionRekey::onMsg1(std::span<const uint8_t> msg1, uint64_t nowMs,
                                           crypto::Rng& rng) {
  // Answered whether or not our own rekeys are enabled (reference). The size
  // is checked first so that a malformed msg1 cannot make us yield.
  if (msg1.size() != XK_MSG1_SIZE) {
    ++stats_.badMessages;
    return std::nullopt;
  }
  if (handshake_) {
    // Dual initiation: the smaller NodeAddr keeps its handshake (spec 01 §8.2).
    if (keepsInitiatorRole(id_.localAddr, id_.remoteAddr)) {
      ++stats_.tieBreakDrops;
      return std::nullopt;
    }
    handshake_.reset();
    ++stats_.yielded;
  } else if (pendingOutranks(nowMs)) {
    ++stats_.pendingDrops;
    return std::nullopt;
  }
  Handshake hs = Handshake::responder(FipsPattern::XK, *id_.suite, id_.local->clone(), id_.epoch);
  if (hs.readMessage(msg1) != HandshakeStatus::OK) {  // -> e, es
    ++stats_.badMessages;
    return std::nullopt;
  }
  XkMsg2 msg2{};
  if (hs.writeMessage(msg2, rng) != HandshakeStatus::OK) return std::nullopt;  // <- e, ee, {epoch}
  handshake_.emplace(std::move(hs));
  handshakeIsOurs_ = false;
  lastPeerRekeyMs_ = nowMs;
  return msg2;
}

std::optional<XkMsg3> SessionRekey::onMsg2(std::span<const uint8_t> msg2, uint64_t nowMs,
                                           crypto::Rng& rng) {
  if (msg2.size() != XK_MSG2_SIZE) {
    ++stats_.badMessages;
    return std::nullopt;
  }
  if (!handshake_ || !handshakeIsOurs_) {
    ++stats_.unexpected;
    return std::nullopt;
  }
  // Departure: the reference abandons the cycle on a msg2 that does not
  // authenticate. Then one forged or stale msg2 restarts the rekey, and the
  // peer's answer to the old msg1 kills the new cycle in turn (a livelock
  // when the RTT exceeds the tick). The failed read left the handshake as it
  // was, so we keep waiting for the genuine msg2 until the handshake timeout.
  if (handshake_->readMessage(msg2) != HandshakeStatus::OK) {  // <- e, ee, {epoch}
    ++stats_.badMessages;
    return std::nullopt;
  }
  XkMsg3 msg3{};
  std::optional<TransportKeys> keys;
  if (handshake_->writeMessage(msg3, rng) == HandshakeStatus::OK) {  // -> {s}, se, {epoch}
    keys = handshake_->split();
  }
  if (!keys) {
    abandonRekey();
    return std::nullopt;
  }
  handshake_.reset();
  keys_.setPending(*keys);
  pendingIsOurs_ = true;
  pendingSinceMs_ = nowMs;
  retainedMsg3_ = msg3;
  msg3Resends_ = 0;
  nextMsg3ResendMs_ = nowMs + cfg_.resendIntervalMs;
  if (reconfirming_) {
    // The peer opens none of our frames on the current keys: waiting the
    // cutover delay for it only prolongs the outage (#25).
    reconfirming_ = false;
    keys_.cutover(nowMs);
    promoted(nowMs);
  }
  return msg3;
}

bool SessionRekey::onMsg3(std::span<const uint8_t> msg3, uint64_t nowMs) {
  if (msg3.size() != XK_MSG3_SIZE) {
    ++stats_.badMessages;
    return false;
  }
  if (!handshake_ || handshakeIsOurs_) {
    ++stats_.unexpected;  // e.g. a resend of a msg3 we already took
    return false;
  }
  // Every outcome below ends this handshake (a bad msg3 too, as in the reference).
  Handshake hs = std::move(*handshake_);
  handshake_.reset();
  if (hs.readMessage(msg3) != HandshakeStatus::OK) {  // -> {s}, se, {epoch}
    ++stats_.badMessages;
    return false;
  }
  // The rekey must come from the session's peer (x-only compare, spec 01 §8.2).
  const crypto::PublicKey* rs = hs.remoteStatic();
  if (rs == nullptr ||
      !std::equal(rs->xOnly().begin(), rs->xOnly().end(), id_.remote.xOnly().begin())) {
    ++stats_.keyMismatches;
    return false;
  }
  auto keys = hs.split();
  if (!keys) return false;
  if (keys_.hasPending()) ++stats_.pendingReplaced;
  keys_.setPending(*keys);
  pendingIsOurs_ = false;
  pendingSinceMs_ = nowMs;
  return true;
}

EpochOpenResult SessionRekey::openFrame(bool kOnWire, std::span<const uint8_t> header,
                                        size_t counterOffset, std::span<const uint8_t> ciphertext,
                                        std::span<uint8_t> out, uint64_t nowMs) {
  const EpochOpenResult result =
      keys_.openFrame(kOnWire, header, counterOffset, ciphertext, out, nowMs);
  if (result.status != OpenStatus::OK) return result;
  if (result.promoted) {
    // The peer is on the new keys: it has our msg3 (if we sent one).
    retainedMsg3_.reset();
    promoted(nowMs);
  } else if (result.slot == KeySlot::CURRENT && retainedMsg3_ && !keys_.hasPending()) {
    retainedMsg3_.reset();  // we cut over first; the responder has caught up
  } else if (result.slot == KeySlot::PREVIOUS) {
    drainAnchorMs_ = nowMs;  // the peer still uses the old keys: keep them
  }
  return result;
}

}  // namespace fips::router::noise
