// SPDX-License-Identifier: MIT
// LinkMmp: the link-layer Metrics Measurement Protocol state of one link
// (FIPS spec 02 §9; the reference's MmpPeerState): the sender and receiver
// sides, the metrics derived from the peer's ReceiverReports, the mode, and
// the link cost parent selection reads. The link engine feeds it every frame
// sealed and authenticated and asks it, per tick, which reports are due.
// Runs in fips-router; reports and frame fields are the peer's (untrusted).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "router/fmp/link-reports.h"
#include "router/link/link-config.h"
#include "router/link/mmp-metrics.h"
#include "router/link/mmp-receiver.h"
#include "router/link/mmp-sender.h"

namespace fips::router::link {

// "full", "lightweight", "minimal".
const char* toString(MmpMode mode);

// A snapshot of one link's traffic counters and MMP metrics, for the
// control surface (show peers/links/mmp) and tests.
struct LinkMetrics {
  MmpMode mode = MmpMode::FULL;
  bool spinInitiator = false;  // our msg1 built the session (spin bit role)
  // Every frame sealed / authenticated on this link (whole FMP packets).
  uint64_t packetsSent = 0;
  uint64_t bytesSent = 0;
  uint64_t packetsRecv = 0;
  uint64_t bytesRecv = 0;
  std::optional<double> srttMs;    // none until the first RTT sample
  std::optional<double> rttvarMs;  // with srttMs
  double lossRate = 0.0;           // 1 − forward delivery ratio
  double etx = 1.0;
  double goodputBps = 0.0;  // bytes/s the peer received from us (EWMA)
  double deliveryForward = 1.0;
  double deliveryReverse = 1.0;
  std::optional<double> smoothedLoss;
  std::optional<double> smoothedEtx;
  std::optional<Trend> rttTrend;
  std::optional<Trend> lossTrend;
  std::optional<Trend> goodputTrend;
  std::optional<Trend> jitterTrend;
  uint32_t jitterUs = 0;      // our RFC 3550 estimate of the peer's frames
  uint32_t ecnCeCount = 0;    // CE marks the peer saw on our frames (its latest report)
  uint64_t reorderCount = 0;  // frames that arrived below the highest counter
  uint64_t lossBursts = 0;    // counter gaps seen on the peer's frames
  uint64_t senderReportsSent = 0;
  uint64_t receiverReportsSent = 0;
  uint64_t senderReportsRecv = 0;
  uint64_t receiverReportsRecv = 0;  // accepted
  uint64_t staleReports = 0;         // ReceiverReports ignored as stale
  uint64_t rttSamples = 0;
  uint64_t rttZeroSamples = 0;        // echoes whose RTT truncated to 0 ms
  uint64_t rttArithFailures = 0;      // echoes that wrapped or lay in our future
  std::optional<uint32_t> lastRttMs;  // the latest RTT sample
  uint64_t senderIntervalMs = 0;
  uint64_t receiverIntervalMs = 0;
  double linkCost = 1.0;  // ETX × (1 + SRTT_ms / 100); 1.0 without SRTT
};

// The MMP state of one link, or of one FSP session (spec 04 §3.3: the same
// reports, estimators and metrics on the session's counters and timestamps,
// with the session schedule; router/fsp/session-mmp.h).
class LinkMmp {
 public:
  // initiator: our msg1 built the session (spin bit role, shown only).
  LinkMmp(MmpMode mode, size_t owdWindow, bool initiator,
          const MmpSchedule& schedule = LINK_MMP_SCHEDULE);

  void onFrameSent(uint64_t counter, uint32_t timestampMs, uint64_t bytes) {
    sender_.recordSent(counter, timestampMs, bytes);
  }
  void onFrameReceived(uint64_t counter, uint32_t senderTimestampMs, uint64_t bytes, bool ce,
                       uint64_t nowMs) {
    receiver_.recordReceived(counter, senderTimestampMs, bytes, ce, nowMs);
  }
  // A frame of the previous session (drain window after a rekey): traffic only.
  void onDrainingFrameReceived(uint64_t bytes) { receiver_.recordTrafficOnly(bytes); }
  // Per tick (spec 02 §9.3): build the reports due now, SenderReport first.
  std::optional<fmp::SenderReport> takeSenderReport(uint64_t nowMs);
  std::optional<fmp::ReceiverReport> takeReceiverReport(uint64_t nowMs);
  // A report could not be sealed (sender side backs off), or could.
  void reportSendFailed() { sender_.recordSendFailure(); }
  void reportSent(bool sender);

  void onSenderReport(const fmp::SenderReport& sr);
  // The peer's ReceiverReport about our frames; ourTimestampMs is our session
  // clock now. True if this gave the link its first SRTT (parent selection
  // should look again, spec 03 §3).
  bool onReceiverReport(const fmp::ReceiverReport& rr, uint32_t ourTimestampMs, uint64_t nowMs);
  // Rekey cutover: receive-side counters and report baselines restart.
  void resetForRekey(uint64_t nowMs);
  // No report of a kind this mode sends has gone out yet: the reports still
  // to make the first exchange (sessions send them as soon as they are due,
  // not on the next tick).
  bool firstReportPending() const {
    return (mode_ != MmpMode::MINIMAL && receiverReportsSent_ == 0) ||
           (mode_ == MmpMode::FULL && senderReportsSent_ == 0);
  }
  void setInitiator(bool initiator) { initiator_ = initiator; }

  bool hasSrtt() const { return metrics_.srtt().initialized(); }
  // FIPS spec 02 §9.3: ETX × (1 + SRTT_ms / 100), with the long-term ETX;
  // 1.0 before the first RTT.
  double cost() const;
  LinkMetrics snapshot() const;
  MmpMode mode() const { return mode_; }

 private:
  MmpMode mode_;
  bool initiator_;
  MmpSender sender_;
  MmpReceiver receiver_;
  MmpMetrics metrics_;
  uint64_t senderReportsSent_ = 0;
  uint64_t receiverReportsSent_ = 0;
  uint64_t senderReportsRecv_ = 0;
  uint64_t receiverReportsRecv_ = 0;
  uint64_t staleReports_ = 0;
};

}  // namespace fips::router::link
