// SPDX-License-Identifier: MIT
// FMP link rekey state machine (see link-rekey.h). Runs in fips-router.
#include "router/noise/link-rekey.h"

#include <algorithm>

namespace fips::router::noise {

LinkRekey::LinkRekey(const LinkPeerIdentity& id, const LinkRekeyConfig& cfg,
                     const TransportKeys& initial, uint64_t nowMs, int64_t jitterSecs)
    : id_(id),
      cfg_(cfg),
      keys_(RekeyLayer::LINK, initial),
      sessionStartMs_(nowMs),
      jitterSecs_(jitterSecs) {}

void LinkRekey::startSession(uint64_t nowMs) {
  sessionStartMs_ = nowMs;
  redrawJitter_ = true;
  answeredMsg1_.reset();
  ++completedRekeys_;
}

std::optional<RekeyMsg1> LinkRekey::tick(uint64_t nowMs, crypto::Rng& rng) {
  if (redrawJitter_ && drawRekeyJitter(rng, jitterSecs_)) redrawJitter_ = false;
  // Initiator cutover: the first tick after our msg2 arrived (spec 01 §8.1).
  if (keys_.hasPending() && pendingIsOurs_ && keys_.cutover(nowMs)) startSession(nowMs);
  keys_.expireDrain(nowMs);
  if (outbound_) {
    if (nowMs - outboundStartMs_ >= cfg_.handshakeTimeoutMs || resends_ >= cfg_.maxResends) {
      outbound_.reset();  // abandon this cycle; the link keeps its current keys
    } else if (nowMs >= nextResendMs_) {
      ++resends_;
      nextResendMs_ = nowMs + (cfg_.resendIntervalMs << std::min<uint32_t>(resends_, 20));
      return outboundMsg1_;
    }
    return std::nullopt;
  }
  if (!cfg_.rekey.enabled || keys_.hasPending() || nowMs < dampenedUntilMs_ ||
      !rekeyDue(cfg_.rekey, nowMs - sessionStartMs_, jitterSecs_, keys_.sendCounter())) {
    return std::nullopt;
  }
  Handshake hs =
      Handshake::initiator(FipsPattern::IK, *id_.suite, id_.local->clone(), id_.remote, id_.epoch);
  if (hs.writeMessage(outboundMsg1_, rng) != HandshakeStatus::OK) return std::nullopt;
  outbound_.emplace(std::move(hs));
  outboundStartMs_ = nowMs;
  resends_ = 0;
  nextResendMs_ = nowMs + cfg_.resendIntervalMs;
  return outboundMsg1_;
}

bool LinkRekey::acceptPeerMsg1(std::span<const uint8_t> msg1, uint64_t nowMs) {
  if (!cfg_.rekey.enabled || nowMs - sessionStartMs_ < REKEY_MIN_SESSION_AGE_MS) return false;
  if (outbound_) {
    // Both sides started a rekey: the smaller NodeAddr stays initiator.
    if (keepsInitiatorRole(id_.localAddr, id_.remoteAddr)) return false;
    outbound_.reset();
  }
  if (keys_.hasPending()) {
    // A pending from an earlier msg1 whose peer never cut over is stale after
    // the handshake timeout; before that, a second handshake is dropped.
    if (pendingIsOurs_ || nowMs - pendingSinceMs_ < cfg_.handshakeTimeoutMs) return false;
    keys_.dropPending();
  }
  return msg1.size() == IK_MSG1_SIZE;
}

std::optional<RekeyMsg2> LinkRekey::onMsg1(std::span<const uint8_t> msg1, uint64_t nowMs,
                                           crypto::Rng& rng) {
  // A resend of the msg1 we already answered: answer again with the same msg2.
  if (answeredMsg1_ && keys_.hasPending() && !pendingIsOurs_ &&
      std::equal(msg1.begin(), msg1.end(), answeredMsg1_->begin(), answeredMsg1_->end())) {
    return answeredMsg2_;
  }
  if (!acceptPeerMsg1(msg1, nowMs)) return std::nullopt;
  Handshake hs = Handshake::responder(FipsPattern::IK, *id_.suite, id_.local->clone(), id_.epoch);
  if (hs.readMessage(msg1) != HandshakeStatus::OK) return std::nullopt;
  // Same peer, same epoch; a restart (other epoch) is the FMP layer's business.
  if (hs.remoteStatic() == nullptr ||
      !std::equal(hs.remoteStatic()->xOnly().begin(), hs.remoteStatic()->xOnly().end(),
                  id_.remote.xOnly().begin()) ||
      hs.remoteEpoch() != std::optional<Epoch>(id_.remoteEpoch)) {
    return std::nullopt;
  }
  RekeyMsg2 msg2{};
  if (hs.writeMessage(msg2, rng) != HandshakeStatus::OK) return std::nullopt;
  auto keys = hs.split();
  if (!keys) return std::nullopt;
  keys_.setPending(*keys);
  pendingIsOurs_ = false;
  pendingSinceMs_ = nowMs;
  answeredMsg1_.emplace();
  std::copy(msg1.begin(), msg1.end(), answeredMsg1_->begin());
  answeredMsg2_ = msg2;
  dampenedUntilMs_ = nowMs + REKEY_DAMPENING_MS;
  return msg2;
}

bool LinkRekey::onMsg2(std::span<const uint8_t> msg2) {
  if (!outbound_ || outbound_->readMessage(msg2) != HandshakeStatus::OK) return false;
  auto keys = outbound_->split();
  outbound_.reset();
  if (!keys) return false;
  keys_.setPending(*keys);
  pendingIsOurs_ = true;
  return true;
}

EpochOpenResult LinkRekey::openFrame(bool kOnWire, std::span<const uint8_t> header,
                                     size_t counterOffset, std::span<const uint8_t> ciphertext,
                                     std::span<uint8_t> out, uint64_t nowMs) {
  const EpochOpenResult result =
      keys_.openFrame(kOnWire, header, counterOffset, ciphertext, out, nowMs);
  if (result.promoted) startSession(nowMs);
  return result;
}

}  // namespace fips::router::noise
