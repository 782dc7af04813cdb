// SPDX-License-Identifier: MIT
// Timers of the session table (FIPS spec 04 §2.4, §5): Setup/Ack resends
// with backoff and handshake timeout, idle teardown of established sessions
// (only Data counts), session rekey ticks (msg1 in a SessionSetup, msg3 in a
// SessionMsg3), session MMP reports and PathMtuNotifications. Runs in fips-router; clock injected.
#include <algorithm>
#include <cmath>
#include <vector>

#include "router/fsp/session-entry.h"
#include "router/fsp/session-messages.h"
#include "router/fsp/session-table.h"

namespace fips::router::fsp {

void SessionTable::tick(uint64_t nowMs, crypto::Rng& rng, SessionActions& out) {
  std::vector<std::pair<NodeAddr, SessionCloseReason>> expired;
  for (auto& [peer, s] : sessions_) {
    if (s->state != SessionState::ESTABLISHED) {
      if (nowMs - s->lastActivityMs > cfg_.handshakeTimeoutMs) {
        expired.emplace_back(peer, SessionCloseReason::HANDSHAKE_TIMEOUT);
      } else {
        tickHandshake(peer, *s, nowMs, out);
      }
    } else if (cfg_.idleTimeoutMs != 0 && nowMs - s->lastActivityMs > cfg_.idleTimeoutMs) {
      expired.emplace_back(peer, SessionCloseReason::IDLE);
    } else {
      tickEstablished(peer, *s, nowMs, rng, out);
    }
  }
  for (const auto& [peer, reason] : expired) {
    erase(peer, reason,
          reason == SessionCloseReason::IDLE ? PendingDropReason::SESSION_CLOSED
                                             : PendingDropReason::HANDSHAKE_TIMEOUT,
          out);
  }
}

void SessionTable::tickHandshake(const NodeAddr& peer, Session& s, uint64_t nowMs,
                                 SessionActions& out) {
  if (s.handshakeMessage.empty() || s.resends >= cfg_.handshakeMaxResends ||
      nowMs < s.nextResendMs) {
    return;
  }
  send(peer, s.handshakeMessage, out);
  ++s.resends;
  const double factor = std::pow(cfg_.handshakeResendBackoff, static_cast<double>(s.resends));
  s.nextResendMs =
      nowMs + static_cast<uint64_t>(static_cast<double>(cfg_.handshakeResendIntervalMs) * factor);
}

void SessionTable::tickEstablished(const NodeAddr& peer, Session& s, uint64_t nowMs,
                                   crypto::Rng& rng, SessionActions& out) {
  const auto rekey = s.keys->tick(nowMs, rng);
  if (rekey.msg1) sendRekeySetup(peer, *rekey.msg1, nowMs, out);
  reconfirmIfUnanswered(peer, s, nowMs, rng, out);
  if (rekey.msg3) {
    const auto bytes = encodeSessionMsg3({.flags = 0, .msg3 = *rekey.msg3});
    send(peer, std::vector<uint8_t>(bytes.begin(), bytes.end()), out);
  }
  syncMmpEpoch(s, nowMs);
  tickMmp(peer, s, nowMs, out);
  if (const auto mtu = s.pathMtu.takeNotification(nowMs)) {
    const auto body = encodePathMtuNotification(*mtu);
    sealAndSend(peer, s, SessionMessageType::PATH_MTU_NOTIFICATION, body, false, nowMs, out);
  }
}

void SessionTable::sendRekeySetup(const NodeAddr& peer, const noise::XkMsg1& msg1, uint64_t nowMs,
                                  SessionActions& out) {
  SessionSetup setup;
  setup.srcCoords = myCoords();
  setup.destCoords = destCoordsOrMine(peer, nowMs);
  setup.msg1 = msg1;
  send(peer, encodeSessionSetup(setup), out);
}

uint64_t SessionTable::unansweredLimitMs(const Session& s) {
  // Session ReceiverReports come every clamp(SRTT, 500, 10000) ms while
  // Data arrives (spec 04 §3.3); two intervals and 3 s of slack before the
  // silence means the peer cannot open our frames.
  double srtt = 1000.0;  // cold start interval
  if (s.mmp) {
    if (const auto measured = s.mmp->snapshot().srttMs) srtt = *measured;
  }
  const auto interval = static_cast<uint64_t>(std::clamp(srtt, 500.0, 10'000.0));
  return UNANSWERED_SLACK_MS + 2 * interval;
}

void SessionTable::reconfirmIfUnanswered(const NodeAddr& peer, Session& s, uint64_t nowMs,
                                         crypto::Rng& rng, SessionActions& out) {
  // Without reports (node.session_mmp.mode minimal) one-way Data is never
  // answered, so silence says nothing.
  if (!s.unansweredSinceMs || cfg_.mmp.mode == link::MmpMode::MINIMAL) return;
  // The first attempt after the limit; the next ones (the peer may still
  // have been down) after 1 s, doubling up to the limit.
  const uint64_t limit = unansweredLimitMs(s);
  const uint64_t wait =
      s.reconfirmAttempts == 0
          ? limit
          : std::min(limit, RECONFIRM_RETRY_MS << std::min<uint32_t>(s.reconfirmAttempts - 1, 16));
  if (nowMs - *s.unansweredSinceMs < wait) return;
  s.unansweredSinceMs = nowMs;
  ++s.reconfirmAttempts;
  if (const auto msg1 = s.keys->reconfirm(nowMs, rng)) {
    ++reconfirms_;
    sendRekeySetup(peer, *msg1, nowMs, out);
  }
}

void SessionTable::reportFirst(const NodeAddr& peer, Session& s, uint64_t nowMs,
                               SessionActions& out) {
  // The reference's reports are due as soon as there is data and none was
  // sent yet, but it looks only on its 1 s tick, so the first RTT sample of a
  // new session (probe's rtt stage) waits up to a tick on each side. Looking
  // after each frame until the first reports are out makes that one round
  // trip; the reports and their schedule after that are unchanged (a departure
  // in timing only, wire format unchanged).
  if (s.mmp && s.mmp->firstReportPending()) tickMmp(peer, s, nowMs, out);
}

void SessionTable::tickMmp(const NodeAddr& peer, Session& s, uint64_t nowMs, SessionActions& out) {
  if (!s.mmp) return;
  // The reference's order: SenderReport (full mode), then ReceiverReport
  // (full and lightweight), each sealed like any session message.
  if (const auto sr = s.mmp->takeSenderReport(nowMs)) {
    const auto body = encodeSessionSenderReport(*sr);
    if (sealAndSend(peer, s, SessionMessageType::SENDER_REPORT, body, false, nowMs, out)) {
      s.mmp->reportSent(true);
    } else {
      s.mmp->reportSendFailed();
    }
  }
  if (const auto rr = s.mmp->takeReceiverReport(nowMs)) {
    const auto body = encodeSessionReceiverReport(*rr);
    if (sealAndSend(peer, s, SessionMessageType::RECEIVER_REPORT, body, false, nowMs, out)) {
      s.mmp->reportSent(false);
    } else {
      s.mmp->reportSendFailed();
    }
  }
}

}  // namespace fips::router::fsp
