// SPDX-License-Identifier: MIT
// One established FMP link (see active-link.h). Runs in fips-router on the
// data path; frames are untrusted and failures come back as statuses.
//
// Index lifecycle across a rekey (spec 02 §4, 01 §8.1):
//   initiator: rekey msg1 → new index bound REKEY (msg2 only) → msg2 completes
//     → rebound SESSION as pending → next tick cuts over → old index drains 10 s.
//   responder: rekey msg1 → new index bound SESSION as pending → the first
//     frame that decrypts under pending promotes it → old index drains 10 s.
// syncIndices() follows LinkRekey after every call: a K flip is a cutover, a
// vanished pending or an abandoned rekey frees its index.
#include "router/link/active-link.h"

#include <algorithm>

#include "router/fmp/fmp-le.h"
#include "router/fmp/inner-header.h"

namespace fips::router::link {

ActiveLink::ActiveLink(ActiveLinkSetup setup, const noise::TransportKeys& keys, IndexTable& table,
                       uint64_t nowMs)
    : setup_(std::move(setup)),
      table_(table),
      session_(std::make_unique<noise::LinkRekey>(setup_.id, setup_.rekeyConfig, keys, nowMs,
                                                  setup_.jitterSecs)),
      current_(setup_.current),
      ourIndex_(setup_.ourIndex),
      theirIndex_(setup_.theirIndex),
      upSinceMs_(nowMs),
      sessionStartMs_(nowMs),
      mmp_(setup_.mmpMode, setup_.mmpOwdWindow, setup_.outbound) {
  bindSession(ourIndex_);
}

void ActiveLink::bindSession(uint32_t index) {
  table_.bind(setup_.current.transportId, index, IndexEntry{setup_.addr, IndexRole::SESSION});
}

void ActiveLink::release(std::optional<uint32_t>& index) {
  if (!index) return;
  table_.release(setup_.current.transportId, *index);
  index.reset();
}

void ActiveLink::releaseIndices() {
  table_.release(setup_.current.transportId, ourIndex_);
  release(rekeyOurIndex_);
  release(draining_);
  if (pending_) table_.release(setup_.current.transportId, pending_->our);
  pending_.reset();
}

void ActiveLink::replaceSession(const noise::TransportKeys& keys, uint32_t ourIndex,
                                uint32_t theirIndex, uint64_t nowMs) {
  releaseIndices();
  session_ = std::make_unique<noise::LinkRekey>(setup_.id, setup_.rekeyConfig, keys, nowMs,
                                                setup_.jitterSecs);
  ourIndex_ = ourIndex;
  theirIndex_ = theirIndex;
  bindSession(ourIndex_);
  setup_.outbound = true;
  mmp_.setInitiator(true);
  sessionStartMs_ = nowMs;
  answeredMsg1_.reset();
}

std::optional<std::vector<uint8_t>> ActiveLink::seal(std::span<const uint8_t> message,
                                                     uint64_t nowMs) {
  // Session-relative timestamp; wraps after ~49 days (spec 02 §3.2).
  const auto timestamp = static_cast<uint32_t>(nowMs - sessionStartMs_);
  const std::vector<uint8_t> plaintext = fmp::encodeInnerPlaintext(timestamp, message);
  noise::KeyEpochs& keys = session_->keys();
  const uint8_t flags = keys.kBit() ? fmp::FLAG_KEY_EPOCH : uint8_t{0};
  const auto header = fmp::makeEstablishedHeader(theirIndex_, 0, flags, plaintext.size());
  if (!header.ok()) return std::nullopt;
  const auto headerBytes = fmp::encodeEstablishedHeader(header.value());
  std::vector<uint8_t> packet(fmp::ESTABLISHED_MIN_SIZE + plaintext.size());
  std::copy(headerBytes.begin(), headerBytes.end(), packet.begin());
  const std::span<uint8_t> whole(packet);
  if (!keys.sealFrame(whole.first(fmp::ESTABLISHED_HEADER_SIZE), fmp::COUNTER_OFFSET, plaintext,
                      whole.subspan(fmp::ESTABLISHED_HEADER_SIZE))) {
    return std::nullopt;
  }
  // The counter sealFrame wrote (spec 02 §3.1), for the SenderReport.
  const uint64_t counter = fmp::loadLe64(packet, fmp::COUNTER_OFFSET);
  mmp_.onFrameSent(counter, timestamp, packet.size());
  return packet;
}

void ActiveLink::onFrameAuthenticated(const fmp::EstablishedHeader& header,
                                      uint32_t senderTimestampMs, uint64_t packetBytes,
                                      uint64_t nowMs) {
  if (lastOpenedDraining_) {
    mmp_.onDrainingFrameReceived(packetBytes);
    return;
  }
  mmp_.onFrameReceived(header.counter, senderTimestampMs, packetBytes,
                       header.congestionExperienced(), nowMs);
}

void ActiveLink::sendReports(uint64_t nowMs, LinkIo& io) {
  if (const auto sr = mmp_.takeSenderReport(nowMs)) {
    const auto packet = seal(fmp::encodeSenderReport(*sr), nowMs);
    if (packet) {
      io.sendDatagram(current_, *packet);
      mmp_.reportSent(true);
    } else {
      mmp_.reportSendFailed();
    }
  }
  if (const auto rr = mmp_.takeReceiverReport(nowMs)) {
    const auto packet = seal(fmp::encodeReceiverReport(*rr), nowMs);
    if (packet) {
      io.sendDatagram(current_, *packet);
      mmp_.reportSent(false);
    }
  }
}

bool ActiveLink::onReceiverReport(const fmp::ReceiverReport& rr, uint64_t nowMs) {
  // Our session clock now: the base of the timestamps the peer echoes.
  const auto ours = static_cast<uint32_t>(nowMs - sessionStartMs_);
  return mmp_.onReceiverReport(rr, ours, nowMs);
}

noise::OpenStatus ActiveLink::open(const fmp::EstablishedFrame& frame, const TransportAddr& from,
                                   std::span<uint8_t> out, uint64_t nowMs) {
  const bool kBefore = session_->keys().kBit();
  // A frame on the index of the session we answered or completed is meant
  // for its keys, whatever its K bit says: a peer that dialed us afresh
  // (its link to us was lost; ours lived on) takes the handshake we
  // answered as a rekey for a new session and sends K = 0 (issue #22).
  const bool onPending = pending_ && frame.header.receiverIdx == pending_->our;
  const bool kOnWire = onPending ? !kBefore : frame.header.keyEpoch();
  const noise::EpochOpenResult result =
      session_->openFrame(kOnWire, frame.aad, fmp::COUNTER_OFFSET, frame.sealed, out, nowMs);
  if (result.status != noise::OpenStatus::OK) return result.status;
  lastOpenedDraining_ = result.slot == noise::KeySlot::PREVIOUS;
  lastRecvMs_ = nowMs;
  current_ = from;
  syncIndices(kBefore, nowMs);
  return result.status;
}

void ActiveLink::syncIndices(bool kBefore, uint64_t nowMs) {
  noise::KeyEpochs& keys = session_->keys();
  if (keys.kBit() != kBefore && pending_) {
    // Cutover (initiator on tick, responder on a frame under pending keys).
    release(draining_);
    draining_ = ourIndex_;
    drainUntilMs_ = nowMs + noise::DRAIN_WINDOW_MS;
    ourIndex_ = pending_->our;
    theirIndex_ = pending_->their;
    pending_.reset();
    sessionStartMs_ = nowMs;
    ++rekeys_;
    mmp_.resetForRekey(nowMs);
  }
  if (pending_ && !keys.hasPending()) {
    table_.release(setup_.current.transportId, pending_->our);
    pending_.reset();
  }
  if (rekeyOurIndex_ && !session_->rekeyInProgress()) release(rekeyOurIndex_);
  if (draining_ && nowMs >= drainUntilMs_) release(draining_);
}

void ActiveLink::tick(uint64_t nowMs, crypto::Rng& rng, LinkIo& io) {
  const bool kBefore = session_->keys().kBit();
  const bool wasInProgress = session_->rekeyInProgress();
  const std::optional<noise::RekeyMsg1> msg1 = session_->tick(nowMs, rng);
  syncIndices(kBefore, nowMs);
  if (!msg1) return;
  if (!wasInProgress || !rekeyOurIndex_) {
    // A new rekey: fresh index, registered for its msg2 only.
    release(rekeyOurIndex_);
    rekeyOurIndex_ = table_.allocate(rng);
    if (!rekeyOurIndex_) return;  // no index: the rekey cannot complete and is abandoned
    table_.bind(setup_.current.transportId, *rekeyOurIndex_,
                IndexEntry{setup_.addr, IndexRole::REKEY});
  }
  const auto frame = fmp::encodeMsg1(*rekeyOurIndex_, *msg1);
  io.sendDatagram(current_, frame);
}

bool ActiveLink::onRekeyMsg1(const fmp::Msg1Frame& msg1, const TransportAddr& from, uint64_t nowMs,
                             crypto::Rng& rng, LinkIo& io) {
  if (answeredMsg1_ && pending_ && session_->keys().hasPending() &&
      std::equal(msg1.noiseMsg.begin(), msg1.noiseMsg.end(), answeredMsg1_->begin())) {
    io.sendDatagram(from, answeredMsg2_);  // duplicate: our msg2 was lost
    return true;
  }
  const bool kBefore = session_->keys().kBit();
  const std::optional<noise::RekeyMsg2> msg2 = session_->onMsg1(msg1.noiseMsg, nowMs, rng);
  syncIndices(kBefore, nowMs);
  if (!msg2) return false;
  const std::optional<uint32_t> index = table_.allocate(rng);
  if (!index) {
    session_->keys().dropPending();
    return false;
  }
  if (pending_) table_.release(setup_.current.transportId, pending_->our);
  bindSession(*index);
  pending_ = IndexPair{*index, msg1.senderIdx};
  answeredMsg1_.emplace();
  std::copy(msg1.noiseMsg.begin(), msg1.noiseMsg.end(), answeredMsg1_->begin());
  answeredMsg2_ = fmp::encodeMsg2(*index, msg1.senderIdx, *msg2);
  answeredAtMs_ = nowMs;
  io.sendDatagram(from, answeredMsg2_);
  return true;
}

bool ActiveLink::onRekeyMsg2(const fmp::Msg2Frame& msg2, uint64_t nowMs) {
  if (!rekeyOurIndex_ || *rekeyOurIndex_ != msg2.receiverIdx) return false;
  if (!session_->onMsg2(msg2.noiseMsg)) return false;
  // The peer is alive: a link silent through an outage is not reaped at the
  // next tick, before the peer's first frame on the new session (issue #22).
  lastRecvMs_ = nowMs;
  if (pending_) table_.release(setup_.current.transportId, pending_->our);
  bindSession(*rekeyOurIndex_);
  pending_ = IndexPair{*rekeyOurIndex_, msg2.senderIdx};
  rekeyOurIndex_.reset();
  return true;
}

bool ActiveLink::dead(uint64_t nowMs, uint64_t timeoutMs) const {
  const uint64_t last = lastRecvMs_.value_or(upSinceMs_);
  // Suppressed while our rekey is in flight (spec 02 §8), and for a grace
  // after we answered the peer's msg1 (ANSWERED_MSG1_GRACE_MS).
  const bool answering = answeredAtMs_ && nowMs - *answeredAtMs_ < ANSWERED_MSG1_GRACE_MS;
  return nowMs - last >= timeoutMs && !session_->rekeyInProgress() && !answering;
}

PeerInfo ActiveLink::info() const {
  return PeerInfo{.addr = setup_.addr,
                  .key = setup_.key,
                  .current = current_,
                  .outbound = setup_.outbound,
                  .remoteEpoch = setup_.id.remoteEpoch,
                  .ourIndex = ourIndex_,
                  .theirIndex = theirIndex_,
                  .upSinceMs = upSinceMs_,
                  .lastRecvMs = lastRecvMs_.value_or(upSinceMs_),
                  .rekeys = rekeys_,
                  .metrics = mmp_.snapshot()};
}

}  // namespace fips::router::link
