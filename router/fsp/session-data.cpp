// SPDX-License-Identifier: MIT
// Encrypted FSP messages in the session table (FIPS spec 04 §3-§5): sealing
// Data and control messages with the 12-byte header as AAD, CP coordinates
// or a standalone CoordsWarmup while the warmup counter runs, and the
// receive path (CP caching, trial decryption over key epochs, inner header,
// dispatch by msg_type, path MTU, session MMP). Runs in fips-router;
// received frames are untrusted.
//
// Pipeline (send): inner header ‖ body → header(flags, len) → [coords] →
// seal into the same buffer after the coordinates → SendFsp. (receive):
// decode header → cache CP coords → open → inner header → handler.
#include <algorithm>

#include "router/fmp/fmp-le.h"
#include "router/fsp/encrypted-message.h"
#include "router/fsp/session-entry.h"
#include "router/fsp/session-messages.h"
#include "router/fsp/session-table.h"

namespace fips::router::fsp {

bool SessionTable::sealAndSend(const NodeAddr& dest, Session& s, SessionMessageType type,
                               std::span<const uint8_t> body, bool withCoords, uint64_t nowMs,
                               SessionActions& out) {
  const auto timestamp = static_cast<uint32_t>(nowMs - s.keys->sessionStartMs());
  const auto inner = encodeInnerPlaintext(
      {.timestampMs = timestamp, .msgType = static_cast<uint8_t>(type), .innerFlags = 0}, body);
  if (inner.size() > noise::MAX_TRANSPORT_PLAINTEXT) return false;
  Coordinates destCoords;
  size_t coordsSize = 0;
  if (withCoords) {
    destCoords = destCoordsOrMine(dest, nowMs);
    coordsSize = coordFieldSize(myCoords()) + coordFieldSize(destCoords);
  }
  uint8_t flags = withCoords ? FLAG_CP : 0;
  if (s.keys->keys().kBit()) flags |= FLAG_K;
  std::vector<uint8_t> msg(FSP_HEADER_SIZE + coordsSize + inner.size() + FSP_TAG_SIZE);
  const std::span<uint8_t> m(msg);
  const auto header = encodeFspHeader(flags, static_cast<uint16_t>(inner.size()), 0);
  std::copy(header.begin(), header.end(), m.begin());
  if (withCoords) {
    const size_t srcSize = writeCoordField(m.subspan(FSP_HEADER_SIZE), myCoords());
    writeCoordField(m.subspan(FSP_HEADER_SIZE + srcSize), destCoords);
  }
  // AEAD: AAD = the 12 header bytes only (the coordinates are cleartext).
  if (!s.keys->keys().sealFrame(m.first(FSP_HEADER_SIZE), FSP_COUNTER_OFFSET, inner,
                                m.subspan(FSP_HEADER_SIZE + coordsSize))) {
    return false;
  }
  // Session MMP counts every sealed message (reports too), as the reference:
  // the counter sealFrame wrote, the ciphertext size (inner + tag).
  syncMmpEpoch(s, nowMs);
  if (s.mmp) {
    s.mmp->onFrameSent(fmp::loadLe64(msg, FSP_COUNTER_OFFSET), timestamp,
                       inner.size() + FSP_TAG_SIZE);
  }
  send(dest, std::move(msg), out);
  return true;
}

bool SessionTable::sendCoordsWarmup(const NodeAddr& dest, Session& s, uint64_t nowMs,
                                    SessionActions& out) {
  return sealAndSend(dest, s, SessionMessageType::COORDS_WARMUP, {}, true, nowMs, out);
}

bool SessionTable::sendEstablished(const NodeAddr& dest, Session& s, uint16_t srcPort,
                                   uint16_t dstPort, std::span<const uint8_t> payload,
                                   uint64_t nowMs, SessionActions& out) {
  std::vector<uint8_t> body(DATA_PORTS_SIZE + payload.size());
  const auto ports = encodeDataPorts(srcPort, dstPort);
  std::copy(ports.begin(), ports.end(), body.begin());
  std::copy(payload.begin(), payload.end(), body.begin() + DATA_PORTS_SIZE);
  bool withCoords = false;
  if (s.warmupRemaining > 0) {
    // FIPS spec 04 §4: CP if it fits the transport MTU, else a CoordsWarmup first.
    const size_t coordsSize =
        coordFieldSize(myCoords()) + coordFieldSize(destCoordsOrMine(dest, nowMs));
    withCoords = FIPS_DATA_OVERHEAD + coordsSize + payload.size() <= transportMtu_;
    if (!withCoords) sendCoordsWarmup(dest, s, nowMs, out);
    --s.warmupRemaining;
  }
  if (!sealAndSend(dest, s, SessionMessageType::DATA, body, withCoords, nowMs, out)) return false;
  ++s.packetsSent;
  s.bytesSent += payload.size();
  s.lastActivityMs = nowMs;  // only Data counts as activity (spec 04 §2.4)
  s.openedForProbe = false;  // real traffic adopted the session
  if (!s.unansweredSinceMs) s.unansweredSinceMs = nowMs;
  reportFirst(dest, s, nowMs, out);
  return true;
}

void SessionTable::flushPending(const NodeAddr& dest, Session& s, uint64_t nowMs,
                                SessionActions& out) {
  for (const auto& p : pending_.take(dest)) {
    if (!sendEstablished(dest, s, p.srcPort, p.dstPort, p.payload, nowMs, out)) break;
  }
}

void SessionTable::onEncrypted(const NodeAddr& src, std::span<const uint8_t> msg, uint16_t pathMtu,
                               bool ce, uint64_t nowMs, SessionActions& out) {
  const auto m = decodeEncryptedMessage(msg);
  if (!m.ok()) return codecError(m.error());
  if (m->coordsPresent()) {
    // FIPS spec 04 §3: source coordinates under src_addr. The destination
    // ones are ours, or the sender's own when it does not know ours (spec 04
    // §4): not cached (the reference keeps them under our address, unread).
    if (!m->srcCoords.empty()) coords_.insert(src, m->srcCoords, nowMs);
  }
  Session* s = find(src);
  if (s == nullptr) return drop(SessionDrop::UNKNOWN_SESSION);
  if (s->state != SessionState::ESTABLISHED) return drop(SessionDrop::BAD_STATE);
  std::vector<uint8_t> plaintext(m->payloadLen);
  const auto opened = s->keys->openFrame(m->keyEpoch(), m->header, FSP_COUNTER_OFFSET,
                                         m->ciphertext, plaintext, nowMs);
  if (opened.status != noise::OpenStatus::OK) return drop(SessionDrop::DECRYPT_FAILED);
  s->unansweredSinceMs.reset();  // the peer holds our keys
  s->reconfirmAttempts = 0;
  const auto inner = decodeInnerPlaintext(plaintext);
  if (!inner.ok()) return codecError(inner.error());
  syncMmpEpoch(*s, nowMs);
  if (s->mmp) {
    // Frames under the previous keys (drain window) count as traffic only:
    // their counters and timestamps belong to the old epoch.
    if (opened.slot == noise::KeySlot::PREVIOUS) {
      s->mmp->onDrainingFrameReceived(plaintext.size());
    } else {
      s->mmp->onFrameReceived(m->counter, inner->header.timestampMs, plaintext.size(), ce, nowMs);
    }
  }
  s->pathMtu.observeIncoming(pathMtu);
  reportFirst(src, *s, nowMs, out);
  const auto type = sessionMessageType(inner->header.msgType);
  if (!type) return drop(SessionDrop::UNKNOWN_MSG_TYPE);
  switch (*type) {
    case SessionMessageType::DATA: {
      const auto data = decodeDataBody(inner->body);
      if (!data.ok()) return codecError(data.error());
      ++s->packetsRecv;
      s->bytesRecv += data->payload.size();
      s->lastActivityMs = nowMs;
      out.emplace_back(
          DeliverData{.src = src,
                      .srcPort = data->srcPort,
                      .dstPort = data->dstPort,
                      .payload = std::vector<uint8_t>(data->payload.begin(), data->payload.end()),
                      .ce = ce});
      return;
    }
    case SessionMessageType::PATH_MTU_NOTIFICATION: {
      const auto mtu = decodePathMtuNotification(inner->body);
      if (!mtu.ok()) return codecError(mtu.error());
      s->pathMtu.applyNotification(mtu.value(), nowMs);
      return;
    }
    case SessionMessageType::SENDER_REPORT:
    case SessionMessageType::RECEIVER_REPORT:
      return onSessionReport(*s, *type, inner->body, nowMs);
    case SessionMessageType::COORDS_WARMUP:
      return;  // its CP coordinates were cached above
  }
}

void SessionTable::syncMmpEpoch(Session& s, uint64_t nowMs) {
  // A K bit flip is a cutover (on tick or promotion by a frame): counters
  // and timestamps restart, and so do the MMP baselines (reference
  // promote_pending -> reset_for_rekey).
  if (!s.mmp || !s.keys || s.keys->kBit() == s.mmpKBit) return;
  s.mmpKBit = s.keys->kBit();
  s.mmp->resetForRekey(nowMs);
}

void SessionTable::onSessionReport(Session& s, SessionMessageType type,
                                   std::span<const uint8_t> body, uint64_t nowMs) {
  if (type == SessionMessageType::SENDER_REPORT) {
    const auto sr = decodeSessionSenderReport(body);
    if (!sr.ok()) return codecError(sr.error());
    if (s.mmp) s.mmp->onSenderReport(sr.value());
    return;
  }
  const auto rr = decodeSessionReceiverReport(body);
  if (!rr.ok()) return codecError(rr.error());
  if (!s.mmp) return;
  // RTT = our session clock now - (echo + dwell), spec 04 §3.3 / 02 §9.3.
  const auto ours = static_cast<uint32_t>(nowMs - s.keys->sessionStartMs());
  s.mmp->onReceiverReport(rr.value(), ours, nowMs);
  // The PathMtuNotification interval follows the session SRTT (max(10 s, 5 × SRTT)).
  if (const auto srtt = s.mmp->snapshot().srttMs) s.pathMtu.setSrtt(static_cast<uint64_t>(*srtt));
}

}  // namespace fips::router::fsp
