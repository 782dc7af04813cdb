// SPDX-License-Identifier: MIT
// Link-layer MMP state of one link (see link-mmp.h). Runs in fips-router.
#include "router/link/link-mmp.h"

namespace fips::router::link {

const char* toString(MmpMode mode) {
  switch (mode) {
    case MmpMode::LIGHTWEIGHT:
      return "lightweight";
    case MmpMode::MINIMAL:
      return "minimal";
    case MmpMode::FULL:
      break;
  }
  return "full";
}

LinkMmp::LinkMmp(MmpMode mode, size_t owdWindow, bool initiator, const MmpSchedule& schedule)
    : mode_(mode), initiator_(initiator), sender_(schedule), receiver_(owdWindow, schedule) {}

std::optional<fmp::SenderReport> LinkMmp::takeSenderReport(uint64_t nowMs) {
  if (mode_ != MmpMode::FULL || !sender_.reportDue(nowMs)) return std::nullopt;
  return sender_.buildReport(nowMs);
}

std::optional<fmp::ReceiverReport> LinkMmp::takeReceiverReport(uint64_t nowMs) {
  if (mode_ == MmpMode::MINIMAL || !receiver_.reportDue(nowMs)) return std::nullopt;
  return receiver_.buildReport(nowMs);
}

void LinkMmp::reportSent(bool sender) {
  if (sender) {
    sender_.recordSendSuccess();
    ++senderReportsSent_;
  } else {
    ++receiverReportsSent_;
  }
}

void LinkMmp::onSenderReport(const fmp::SenderReport& /*sr*/) {
  // The reference reads nothing from SenderReports yet (it logs them).
  ++senderReportsRecv_;
}

bool LinkMmp::onReceiverReport(const fmp::ReceiverReport& rr, uint32_t ourTimestampMs,
                               uint64_t nowMs) {
  const bool hadSrtt = hasSrtt();
  if (metrics_.onReceiverReport(rr, ourTimestampMs, nowMs) == ReportVerdict::STALE) {
    ++staleReports_;
    return false;
  }
  ++receiverReportsRecv_;
  if (hasSrtt()) {
    sender_.updateIntervalFromSrtt(metrics_.srtt().srttUs());
    receiver_.updateIntervalFromSrtt(metrics_.srtt().srttUs());
  }
  metrics_.updateReverseDelivery(receiver_.packetsReceived(), receiver_.highestCounter());
  return !hadSrtt && hasSrtt();
}

void LinkMmp::resetForRekey(uint64_t nowMs) {
  receiver_.resetForRekey(nowMs);
  metrics_.resetForRekey();
}

double LinkMmp::cost() const {
  const std::optional<double> srtt = metrics_.srttMs();
  if (!srtt) return 1.0;
  // A departure: the long-term ETX (EWMA 1/32), where the reference takes
  // the last report's. On a link carrying little but the reports, one frame
  // still in flight when a ReceiverReport arrives halves that report's
  // reverse delivery ratio (reordering; the surplus next time is clamped
  // away), so the instant ETX swings between 1 and 2 and parents flap.
  return metrics_.smoothedEtx().value_or(metrics_.etx()) * (1.0 + *srtt / 100.0);
}

LinkMetrics LinkMmp::snapshot() const {
  LinkMetrics m;
  m.mode = mode_;
  m.spinInitiator = initiator_;
  m.packetsSent = sender_.packetsSent();
  m.bytesSent = sender_.bytesSent();
  m.packetsRecv = receiver_.packetsReceived();
  m.bytesRecv = receiver_.bytesReceived();
  m.srttMs = metrics_.srttMs();
  if (m.srttMs) m.rttvarMs = static_cast<double>(metrics_.srtt().rttvarUs()) / 1000.0;
  m.lossRate = metrics_.lossRate();
  m.etx = metrics_.etx();
  m.goodputBps = metrics_.goodputBps();
  m.deliveryForward = metrics_.deliveryForward();
  m.deliveryReverse = metrics_.deliveryReverse();
  m.smoothedLoss = metrics_.smoothedLoss();
  m.smoothedEtx = metrics_.smoothedEtx();
  const auto trend = [](const DualEwma& e) -> std::optional<Trend> {
    if (!e.initialized()) return std::nullopt;
    return trendOf(e);
  };
  m.rttTrend = trend(metrics_.rttTrend());
  m.lossTrend = trend(metrics_.lossTrend());
  m.goodputTrend = trend(metrics_.goodputTrend());
  m.jitterTrend = trend(metrics_.jitterTrend());
  m.jitterUs = receiver_.jitterUs();
  m.ecnCeCount = metrics_.lastEcnCeCount();
  m.reorderCount = receiver_.reorderCount();
  m.lossBursts = receiver_.lossBursts();
  m.senderReportsSent = senderReportsSent_;
  m.receiverReportsSent = receiverReportsSent_;
  m.senderReportsRecv = senderReportsRecv_;
  m.receiverReportsRecv = receiverReportsRecv_;
  m.staleReports = staleReports_;
  m.rttSamples = metrics_.rttSamples();
  m.rttZeroSamples = metrics_.rttZeroSamples();
  m.rttArithFailures = metrics_.rttArithFailures();
  m.lastRttMs = metrics_.lastRttMs();
  m.senderIntervalMs = sender_.reportIntervalMs();
  m.receiverIntervalMs = receiver_.reportIntervalMs();
  m.linkCost = cost();
  return m;
}

}  // namespace fips::router::link
