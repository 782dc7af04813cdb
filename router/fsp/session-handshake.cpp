// SPDX-License-Identifier: MIT
// The FSP handshake in the session table (FIPS spec 04 §2.4): initiating a
// session (SessionSetup, XK msg1), answering a Setup (SessionAck, msg2) with
// setup admission, crossing setups and Ack resend, completing on the Ack
// (SessionMsg3, msg3) and on msg3 (static key must hash to src_addr), and the
// rekey handshakes of established sessions (router/noise/session-rekey.h).
// Runs in fips-router; every message is untrusted.
#include <utility>

#include "lib/identity/node-addr.h"
#include "router/fsp/session-entry.h"
#include "router/fsp/session-table.h"

namespace fips::router::fsp {

bool SessionTable::initiate(const NodeAddr& dest, const crypto::PublicKey& key, uint64_t nowMs,
                            crypto::Rng& rng, SessionActions& out) {
  auto hs = noise::Handshake::initiator(noise::FipsPattern::XK, *local_.suite, local_.keys->clone(),
                                        key, local_.epoch);
  SessionSetup setup;
  setup.srcCoords = myCoords();
  setup.destCoords = destCoordsOrMine(dest, nowMs);
  // -> e, es
  if (hs.writeMessage(setup.msg1, rng) != noise::HandshakeStatus::OK) return false;
  auto s = std::make_unique<Session>();
  s->state = SessionState::INITIATING;
  s->initiator = true;
  s->remoteKey = key;
  s->handshake.emplace(std::move(hs));
  s->handshakeMessage = encodeSessionSetup(setup);
  s->nextResendMs = nowMs + cfg_.handshakeResendIntervalMs;
  s->createdMs = nowMs;
  s->lastActivityMs = nowMs;
  send(dest, s->handshakeMessage, out);
  identities_.insert(key);
  sessions_[dest] = std::move(s);
  return true;
}

void SessionTable::onSetup(const NodeAddr& src, const NodeAddr& linkPeer,
                           std::span<const uint8_t> msg, uint64_t nowMs, crypto::Rng& rng,
                           SessionActions& out) {
  const auto setup = decodeSessionSetup(msg);
  if (!setup.ok()) return codecError(setup.error());
  Session* s = find(src);
  const bool established = s != nullptr && s->state == SessionState::ESTABLISHED;
  if (!setupLimiter_.admit(linkPeer, established, nowMs)) {
    return drop(SessionDrop::SETUP_RATE_LIMITED);
  }
  // The responder routes its Ack by the initiator's coordinates.
  coords_.insert(src, setup->srcCoords, nowMs);
  if (s != nullptr) {
    switch (s->state) {
      case SessionState::INITIATING:
        // Crossing setups: the smaller NodeAddr keeps the initiator role.
        if (local_.addr < src) return drop(SessionDrop::CROSSING_SETUP_WON);
        break;  // we lose: answerSetup replaces our attempt; queued packets stay
      case SessionState::AWAITING_MSG3:
        send(src, s->handshakeMessage, out);  // our Ack was lost: resend it
        return;
      case SessionState::ESTABLISHED: {
        // A msg1 on an established session is a rekey (or a restarted peer).
        const auto msg2 = s->keys->onMsg1(setup->msg1, nowMs, rng);
        if (!msg2) return;
        SessionAck ack{
            .flags = 0, .srcCoords = myCoords(), .destCoords = setup->srcCoords, .msg2 = *msg2};
        send(src, encodeSessionAck(ack), out);
        return;
      }
    }
  }
  answerSetup(src, setup.value(), nowMs, rng, out);
}

bool SessionTable::answerSetup(const NodeAddr& src, const SessionSetup& setup, uint64_t nowMs,
                               crypto::Rng& rng, SessionActions& out) {
  auto hs = noise::Handshake::responder(noise::FipsPattern::XK, *local_.suite, local_.keys->clone(),
                                        local_.epoch);
  // <- e, es
  if (hs.readMessage(setup.msg1) != noise::HandshakeStatus::OK) {
    drop(SessionDrop::HANDSHAKE_FAILED);
    return false;
  }
  SessionAck ack{.flags = 0, .srcCoords = myCoords(), .destCoords = setup.srcCoords, .msg2 = {}};
  // -> e, ee, {epoch}
  if (hs.writeMessage(ack.msg2, rng) != noise::HandshakeStatus::OK) return false;
  auto s = std::make_unique<Session>();
  s->state = SessionState::AWAITING_MSG3;
  s->handshake.emplace(std::move(hs));
  s->handshakeMessage = encodeSessionAck(ack);
  s->nextResendMs = nowMs + cfg_.handshakeResendIntervalMs;
  s->createdMs = nowMs;
  s->lastActivityMs = nowMs;
  send(src, s->handshakeMessage, out);
  sessions_[src] = std::move(s);
  return true;
}

void SessionTable::onAck(const NodeAddr& src, std::span<const uint8_t> msg, uint64_t nowMs,
                         crypto::Rng& rng, SessionActions& out) {
  const auto ack = decodeSessionAck(msg);
  if (!ack.ok()) return codecError(ack.error());
  Session* s = find(src);
  if (s == nullptr) return drop(SessionDrop::UNKNOWN_SESSION);
  if (s->state == SessionState::ESTABLISHED) {
    // Our rekey's msg2 (late duplicates are counted by SessionRekey).
    if (const auto msg3 = s->keys->onMsg2(ack->msg2, nowMs, rng)) {
      const auto bytes = encodeSessionMsg3({.flags = 0, .msg3 = *msg3});
      send(src, std::vector<uint8_t>(bytes.begin(), bytes.end()), out);
    }
    return;
  }
  if (s->state != SessionState::INITIATING) return drop(SessionDrop::BAD_STATE);
  // <- e, ee, {epoch}
  if (s->handshake->readMessage(ack->msg2) != noise::HandshakeStatus::OK) {
    return drop(SessionDrop::HANDSHAKE_FAILED);  // the attempt keeps waiting
  }
  SessionMsg3 msg3;
  // -> {s}, se, {epoch}
  if (s->handshake->writeMessage(msg3.msg3, rng) != noise::HandshakeStatus::OK) return;
  const auto bytes = encodeSessionMsg3(msg3);
  send(src, std::vector<uint8_t>(bytes.begin(), bytes.end()), out);
  coords_.insert(src, ack->srcCoords, nowMs);
  establish(src, *s, *s->remoteKey, nowMs, rng, out);
}

void SessionTable::onMsg3(const NodeAddr& src, std::span<const uint8_t> msg, uint64_t nowMs,
                          crypto::Rng& rng, SessionActions& out) {
  const auto msg3 = decodeSessionMsg3(msg);
  if (!msg3.ok()) return codecError(msg3.error());
  Session* s = find(src);
  if (s == nullptr) return drop(SessionDrop::UNKNOWN_SESSION);
  if (s->state == SessionState::ESTABLISHED) {
    s->keys->onMsg3(msg3->msg3, nowMs);  // a rekey's msg3; mismatches counted there
    return;
  }
  if (s->state != SessionState::AWAITING_MSG3) return drop(SessionDrop::BAD_STATE);
  // <- {s}, se, {epoch}
  if (s->handshake->readMessage(msg3->msg3) != noise::HandshakeStatus::OK) {
    return drop(SessionDrop::HANDSHAKE_FAILED);  // a forgery leaves the handshake as it was
  }
  const crypto::PublicKey remote = *s->handshake->remoteStatic();
  if (NodeAddr::fromPublicKey(remote) != src) {
    // FIPS spec 04 §2.4: NodeAddr(xonly(rs)) must equal src_addr.
    drop(SessionDrop::ADDR_MISMATCH);
    erase(src, SessionCloseReason::ADDR_MISMATCH, PendingDropReason::SESSION_CLOSED, out);
    return;
  }
  identities_.insert(remote);
  establish(src, *s, remote, nowMs, rng, out);
}

void SessionTable::establish(const NodeAddr& peer, Session& s, const crypto::PublicKey& remote,
                             uint64_t nowMs, crypto::Rng& rng, SessionActions& out) {
  const auto keys = s.handshake->split();
  if (!keys) return;
  int64_t jitterSecs = 0;
  if (!noise::drawRekeyJitter(rng, jitterSecs)) jitterSecs = 0;
  const noise::SessionPeerIdentity id{.suite = local_.suite,
                                      .local = local_.keys,
                                      .remote = remote,
                                      .localAddr = local_.addr.bytes(),
                                      .remoteAddr = peer.bytes(),
                                      .epoch = local_.epoch};
  s.keys = std::make_unique<noise::SessionRekey>(id, rekey_, *keys, nowMs, jitterSecs);
  s.state = SessionState::ESTABLISHED;
  s.remoteKey = remote;
  s.handshake.reset();
  s.handshakeMessage.clear();
  s.resends = 0;
  s.warmupRemaining = cfg_.coordsWarmupPackets;
  s.lastActivityMs = nowMs;
  s.mmp.emplace(cfg_.mmp.mode, cfg_.mmp.owdWindow, s.initiator, SESSION_MMP_SCHEDULE);
  s.mmpKBit = s.keys->kBit();
  out.emplace_back(SessionUp{.peer = peer, .initiator = s.initiator});
  flushPending(peer, s, nowMs, out);
}

}  // namespace fips::router::fsp
