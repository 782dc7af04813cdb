// SPDX-License-Identifier: MIT
// LinkManager receive path: the one dispatch point for every FMP datagram and
// the established-frame pipeline (spec 02 §3.3). Runs in fips-router; all
// input is untrusted: nothing here throws, every rejected datagram is
// counted once under its DropReason.
//
// Pipeline, sequential, one datagram at a time:
//   1. classifyPacket: version, phase, per-phase payload_len/length rule.
//   2. phase 1/2 → handshake handlers; phase 0 → (transport, receiver_idx)
//      lookup in the IndexTable (SESSION entries; a CANDIDATE index confirms
//      a restart, a HANDSHAKE index means our msg2 was lost: msg1 resent).
//   3. ActiveLink::open: trial decryption (pending/current/previous keys),
//      replay window, liveness, roaming; plaintext into plaintext_ (owned by
//      the manager, valid until the next datagram).
//   4. inner header → MMP receive accounting on the link (spec 02 §9.3), then
//      link-message framing; Heartbeat, Disconnect and the MMP reports are
//      consumed here and everything else handed to LinkIo::onLinkMessage
//      (borrowed span).
#include "router/fmp/disconnect.h"
#include "router/fmp/established-frame.h"
#include "router/fmp/fmp-prefix.h"
#include "router/fmp/inner-header.h"
#include "router/fmp/link-message.h"
#include "router/fmp/link-reports.h"
#include "router/link/link-manager.h"

namespace fips::router::link {

void LinkManager::onDatagram(const TransportAddr& from, std::span<const uint8_t> packet) {
  if (shutdown_) return;
  // FIPS spec 02 §1: prefix and the per-phase payload_len rule, before any lookup.
  const fmp::FmpResult<fmp::FmpPhase> phase = fmp::classifyPacket(packet);
  if (!phase.ok()) return drop(dropReasonFor(phase.error()));
  switch (phase.value()) {
    case fmp::FmpPhase::MSG1:
      return handleMsg1(from, packet);
    case fmp::FmpPhase::MSG2:
      return handleMsg2(from, packet);
    case fmp::FmpPhase::ESTABLISHED:
      return handleFrame(from, packet);
  }
}

void LinkManager::handleFrame(const TransportAddr& from, std::span<const uint8_t> packet) {
  const auto frame = fmp::decodeEstablished(packet);
  if (!frame.ok()) return drop(dropReasonFor(frame.error()));
  // FIPS spec 02 §3.3 step 2: unknown (transport, receiver_idx) → drop.
  const IndexEntry* entry = indices_.find(from.transportId, frame->header.receiverIdx);
  if (entry != nullptr && entry->role == IndexRole::CANDIDATE) {
    return confirmCandidate(entry->peer, frame.value(), from);
  }
  if (entry != nullptr && entry->role == IndexRole::HANDSHAKE) {
    return onFrameForHandshake(entry->peer);
  }
  if (entry == nullptr || entry->role != IndexRole::SESSION) return drop(DropReason::UNKNOWN_INDEX);
  const identity::NodeAddr peer = entry->peer;
  const auto it = peers_.find(peer);
  if (it == peers_.end()) return drop(DropReason::UNKNOWN_INDEX);
  plaintext_.resize(frame->header.payloadLen);
  const noise::OpenStatus status =
      it->second->open(frame.value(), from, plaintext_, clock_.nowMs());
  if (status != noise::OpenStatus::OK) return drop(dropReasonFor(status));
  dispatchMessage(peer, frame.value(), plaintext_);
}

void LinkManager::dispatchMessage(const identity::NodeAddr& peer,
                                  const fmp::EstablishedFrame& frame,
                                  std::span<const uint8_t> plaintext) {
  const auto inner = fmp::decodeInnerPlaintext(plaintext);
  if (!inner.ok()) return drop(DropReason::BAD_INNER);
  const auto link = peers_.find(peer);
  if (link == peers_.end()) return;
  // FIPS spec 02 §9.3: every authenticated frame counts, whatever it carries.
  const uint64_t packetBytes = fmp::ESTABLISHED_HEADER_SIZE + frame.sealed.size();
  link->second->onFrameAuthenticated(frame.header, inner->timestampMs, packetBytes, clock_.nowMs());
  const auto message = fmp::decodeLinkMessage(inner->message);
  if (!message.ok()) return drop(dropReasonFor(message.error()));
  switch (message->type) {
    case fmp::LinkMessageType::HEARTBEAT:
      return;  // liveness was recorded when the frame authenticated
    case fmp::LinkMessageType::SENDER_REPORT:
    case fmp::LinkMessageType::RECEIVER_REPORT:
      return onReport(*link->second, message->type, message->body);
    case fmp::LinkMessageType::DISCONNECT:
      // FIPS spec 02 §8: any Disconnect removes the peer at once.
      return takeDown(peer, LinkDownReason::REMOTE_DISCONNECT);
    default:
      io_.onLinkMessage(peer, message->type, message->body);
  }
}

void LinkManager::onReport(ActiveLink& link, fmp::LinkMessageType type,
                           std::span<const uint8_t> body) {
  if (type == fmp::LinkMessageType::SENDER_REPORT) {
    const auto sr = fmp::decodeSenderReport(body);
    if (!sr.ok()) return drop(DropReason::BAD_LINK_MESSAGE);
    return link.onSenderReport(sr.value());
  }
  const auto rr = fmp::decodeReceiverReport(body);
  if (!rr.ok()) return drop(DropReason::BAD_LINK_MESSAGE);
  if (link.onReceiverReport(rr.value(), clock_.nowMs())) io_.onLinkMeasured(link.addr());
}

}  // namespace fips::router::link
