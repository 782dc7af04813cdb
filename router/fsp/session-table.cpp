// SPDX-License-Identifier: MIT
// FSP session table: construction, dispatch of inbound FSP messages by phase
// (spec 04 §1), routing signals (§4-§6, §6 admission gate), lookups, route
// failures and removal. Runs in fips-router; every input is untrusted.
//
// Pipeline (inbound): SessionDatagram payload → prefix → phase handler
// (session-handshake.cpp for phases 1-3, session-data.cpp for phase 0 U=0,
// onRoutingSignal for U=1) → SessionActions appended to the caller's vector.
// One caller thread; spans are borrowed for the call only.
#include "router/fsp/session-table.h"

#include "router/fsp/session-entry.h"

namespace fips::router::fsp {

const char* toString(SessionDrop drop) {
  switch (drop) {
    case SessionDrop::MALFORMED:
      return "malformed";
    case SessionDrop::SETUP_RATE_LIMITED:
      return "setup_rate_limited";
    case SessionDrop::CROSSING_SETUP_WON:
      return "crossing_setup_won";
    case SessionDrop::HANDSHAKE_FAILED:
      return "handshake_failed";
    case SessionDrop::UNKNOWN_SESSION:
      return "unknown_session";
    case SessionDrop::BAD_STATE:
      return "bad_state";
    case SessionDrop::ADDR_MISMATCH:
      return "addr_mismatch";
    case SessionDrop::DECRYPT_FAILED:
      return "decrypt_failed";
    case SessionDrop::UNKNOWN_MSG_TYPE:
      return "unknown_msg_type";
    case SessionDrop::SIGNAL_FORGED:
      return "signal_forged";
    case SessionDrop::SIGNAL_UNBOUND:
      return "signal_unbound";
    case SessionDrop::COUNT_:
      break;
  }
  return "unknown";
}

SessionTable::SessionTable(const LocalIdentity& local, const SessionConfig& cfg,
                           routing::CoordCache& coords, routing::IdentityCache& identities)
    : local_(local),
      cfg_(cfg),
      rekey_(cfg.rekey),
      coords_(coords),
      identities_(identities),
      selfOnly_(std::vector<NodeAddr>{local.addr}),
      setupLimiter_(cfg.setupRate),
      pending_(cfg.pendingPacketsPerDest, cfg.pendingMaxDestinations) {
  // The rekey machine shares the session's timers (spec 04 §8).
  rekey_.idleTimeoutMs = cfg.idleTimeoutMs;
  rekey_.resendIntervalMs = cfg.handshakeResendIntervalMs;
  rekey_.maxResends = cfg.handshakeMaxResends;
  rekey_.handshakeTimeoutMs = cfg.handshakeTimeoutMs;
}

SessionTable::~SessionTable() = default;

SessionTable::Session* SessionTable::find(const NodeAddr& peer) {
  const auto it = sessions_.find(peer);
  return it == sessions_.end() ? nullptr : it->second.get();
}

void SessionTable::codecError(FspError error) {
  ++codecErrors_[static_cast<size_t>(error)];
  drop(SessionDrop::MALFORMED);
}

const Coordinates& SessionTable::myCoords() {
  return myCoords_.empty() ? selfOnly_ : myCoords_;
}

Coordinates SessionTable::destCoordsOrMine(const NodeAddr& dest, uint64_t nowMs) {
  // FIPS spec 04 §2.1, §4: unknown destination coordinates → our own.
  const auto* entry = coords_.get(dest, nowMs);
  return entry != nullptr && !entry->coords.empty() ? entry->coords : myCoords();
}

void SessionTable::send(const NodeAddr& dest, std::vector<uint8_t> message,
                        SessionActions& out) const {
  out.emplace_back(SendFsp{.dest = dest, .ttl = cfg_.defaultTtl, .message = std::move(message)});
}

void SessionTable::erase(const NodeAddr& peer, SessionCloseReason reason,
                         PendingDropReason pendingReason, SessionActions& out) {
  if (sessions_.erase(peer) == 0) return;
  out.emplace_back(SessionDown{.peer = peer, .reason = reason});
  auto packets = pending_.take(peer);
  if (!packets.empty()) {
    out.emplace_back(
        DropPending{.dest = peer, .reason = pendingReason, .packets = std::move(packets)});
  }
}

void SessionTable::onDatagram(const NodeAddr& src, const NodeAddr& linkPeer,
                              std::span<const uint8_t> fsp, uint16_t pathMtu, bool ce,
                              uint64_t nowMs, crypto::Rng& rng, SessionActions& out) {
  const auto prefix = decodeFspPrefix(fsp);
  if (!prefix.ok()) return codecError(prefix.error());
  switch (prefix->phase) {
    case FspPhase::SETUP:
      return onSetup(src, linkPeer, fsp, nowMs, rng, out);
    case FspPhase::ACK:
      return onAck(src, fsp, nowMs, rng, out);
    case FspPhase::MSG3:
      return onMsg3(src, fsp, nowMs, rng, out);
    case FspPhase::ESTABLISHED:
      break;
  }
  if (!prefix->unencrypted()) return onEncrypted(src, fsp, pathMtu, ce, nowMs, out);
  const auto body = fsp.subspan(FSP_PREFIX_SIZE);
  if (prefix->payloadLen != body.size()) return codecError(FspError::BAD_LENGTH);
  const auto signal = routing::decodeRoutingSignal(body);
  if (!signal.ok()) return codecError(FspError::UNKNOWN_TYPE);
  onRoutingSignal(src, signal.value(), nowMs, out);
}

void SessionTable::onRoutingSignal(const NodeAddr& datagramSrc,
                                   const routing::RoutingSignal& signal, uint64_t nowMs,
                                   SessionActions& out) {
  const NodeAddr& dest = routing::signalDestAddr(signal);
  // FIPS spec 04 §6 admission gate: signals are unauthenticated.
  if (dest == local_.addr || datagramSrc == dest) return drop(SessionDrop::SIGNAL_FORGED);
  Session* s = find(dest);
  if (s == nullptr || !(s->state == SessionState::ESTABLISHED || s->initiator)) {
    return drop(SessionDrop::SIGNAL_UNBOUND);
  }
  if (const auto* mtu = std::get_if<routing::MtuExceeded>(&signal)) {
    s->pathMtu.applyNotification(mtu->mtu, nowMs);  // §5: tighten at once (>= 256 only)
    return;
  }
  // CoordsRequired / PathBroken (spec 04 §4).
  if (std::holds_alternative<routing::PathBroken>(signal)) coords_.remove(dest);
  const bool mayAnswer =
      !s->lastCoordsResponseMs || nowMs - *s->lastCoordsResponseMs >= cfg_.coordsResponseIntervalMs;
  if (mayAnswer && s->state == SessionState::ESTABLISHED) {
    s->lastCoordsResponseMs = nowMs;
    sendCoordsWarmup(dest, *s, nowMs, out);
  }
  if (identities_.contains(dest)) out.emplace_back(StartLookup{.dest = dest});
  s->warmupRemaining = cfg_.coordsWarmupPackets;
}

SendOutcome SessionTable::sendData(const NodeAddr& dest, uint16_t srcPort, uint16_t dstPort,
                                   std::span<const uint8_t> payload, uint64_t nowMs,
                                   crypto::Rng& rng, SessionActions& out) {
  if (dest == local_.addr) return SendOutcome::FAILED;  // the caller hairpins its own traffic
  Session* s = find(dest);
  if (s != nullptr && s->state == SessionState::ESTABLISHED) {
    return sendEstablished(dest, *s, srcPort, dstPort, payload, nowMs, out) ? SendOutcome::SENT
                                                                            : SendOutcome::FAILED;
  }
  // Packets already waiting mean a handshake or lookup for dest is under way.
  const bool waiting = s != nullptr || pending_.has(dest);
  PendingPacket packet{.srcPort = srcPort,
                       .dstPort = dstPort,
                       .payload = std::vector<uint8_t>(payload.begin(), payload.end())};
  if (!pending_.push(dest, std::move(packet))) return SendOutcome::DROPPED_QUEUE;
  if (waiting) return SendOutcome::QUEUED;
  const auto* cached = identities_.find(dest);
  if (cached == nullptr) {
    out.emplace_back(StartLookup{.dest = dest});
    return SendOutcome::QUEUED_LOOKUP;
  }
  initiate(dest, cached->key, nowMs, rng, out);
  return SendOutcome::QUEUED;
}

bool SessionTable::open(const NodeAddr& dest, uint64_t nowMs, crypto::Rng& rng,
                        SessionActions& out) {
  if (dest == local_.addr || find(dest) != nullptr) return false;
  const auto* cached = identities_.find(dest);
  if (cached == nullptr) return false;
  if (!initiate(dest, cached->key, nowMs, rng, out)) return false;
  find(dest)->openedForProbe = true;
  return true;
}

bool SessionTable::sendWarmup(const NodeAddr& dest, uint64_t nowMs, SessionActions& out) {
  Session* s = find(dest);
  if (s == nullptr || s->state != SessionState::ESTABLISHED) return false;
  if (!sendCoordsWarmup(dest, *s, nowMs, out)) return false;
  reportFirst(dest, *s, nowMs, out);
  return true;
}

void SessionTable::onLookupResult(const NodeAddr& dest, bool found, uint64_t nowMs,
                                  crypto::Rng& rng, SessionActions& out) {
  Session* s = find(dest);
  if (!found) {
    auto packets = pending_.take(dest);
    if (!packets.empty()) {
      out.emplace_back(DropPending{
          .dest = dest, .reason = PendingDropReason::NO_ROUTE, .packets = std::move(packets)});
    }
    return;
  }
  if (s != nullptr) {
    // FIPS spec 04 §4: a successful lookup resets an established session's warmup.
    if (s->state == SessionState::ESTABLISHED) s->warmupRemaining = cfg_.coordsWarmupPackets;
    return;
  }
  const auto* cached = identities_.find(dest);
  if (cached == nullptr || !pending_.has(dest)) return;
  initiate(dest, cached->key, nowMs, rng, out);
}

void SessionTable::onRouteFailed(const NodeAddr& dest, SessionActions& out) {
  Session* s = find(dest);
  if (s == nullptr || s->state != SessionState::INITIATING || s->resends != 0) return;
  sessions_.erase(dest);
  out.emplace_back(StartLookup{.dest = dest});
}

void SessionTable::seedPathMtu(const NodeAddr& dest, uint16_t linkMtu) {
  if (Session* s = find(dest)) s->pathMtu.seedSourceMtu(linkMtu);
}

void SessionTable::removeSession(const NodeAddr& peer, SessionActions& out) {
  erase(peer, SessionCloseReason::REMOVED, PendingDropReason::SESSION_CLOSED, out);
}

ProbeTeardown SessionTable::closeProbeSession(const NodeAddr& dest, uint64_t createdMs,
                                              SessionActions& out) {
  const Session* s = find(dest);
  if (s == nullptr) return ProbeTeardown::GONE;
  if (s->createdMs != createdMs || !s->initiator) return ProbeTeardown::REPLACED;
  if (!s->openedForProbe || s->packetsRecv != 0 || pending_.has(dest)) {
    return ProbeTeardown::ADOPTED;
  }
  erase(dest, SessionCloseReason::PROBE_TEARDOWN, PendingDropReason::SESSION_CLOSED, out);
  return ProbeTeardown::TORN_DOWN;
}

SessionInfo SessionTable::infoOf(const Session& s) {
  SessionInfo info{.state = s.state,
                   .initiator = s.initiator,
                   .coordsWarmupRemaining = s.warmupRemaining,
                   .pathMtu = s.pathMtu.currentMtu(),
                   .packetsSent = s.packetsSent,
                   .packetsRecv = s.packetsRecv,
                   .bytesSent = s.bytesSent,
                   .bytesRecv = s.bytesRecv,
                   .resends = s.resends,
                   .createdMs = s.createdMs,
                   .lastActivityMs = s.lastActivityMs};
  if (s.keys) {
    info.sessionStartMs = s.keys->sessionStartMs();
    info.kBit = s.keys->kBit();
    info.draining = s.keys->draining();
    info.rekeys = s.keys->completedRekeys();
    info.rekeyInProgress = s.keys->rekeyInProgress();
  }
  if (s.mmp) info.mmp = s.mmp->snapshot();
  info.openedForProbe = s.openedForProbe;
  return info;
}

std::optional<SessionInfo> SessionTable::info(const NodeAddr& peer) const {
  const auto it = sessions_.find(peer);
  if (it == sessions_.end()) return std::nullopt;
  return infoOf(*it->second);
}

std::vector<std::pair<NodeAddr, SessionInfo>> SessionTable::list() const {
  std::vector<std::pair<NodeAddr, SessionInfo>> out;
  out.reserve(sessions_.size());
  for (const auto& [addr, session] : sessions_) out.emplace_back(addr, infoOf(*session));
  return out;
}

}  // namespace fips::router::fsp
