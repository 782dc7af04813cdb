// SPDX-License-Identifier: MIT
// Unit tests of the link-layer MMP pieces on their own (spec 02 §9.3): the
// estimators, the sender and receiver report builders and the metrics taken
// from ReceiverReports. Test code only.
#include <string>

#include <doctest/doctest.h>

#include "router/link/link-mmp.h"
#include "router/link/mmp-estimators.h"
#include "router/link/mmp-metrics.h"
#include "router/link/mmp-receiver.h"
#include "router/link/mmp-sender.h"

namespace fips::router::link {
namespace {

TEST_CASE("mmp: SRTT per RFC 6298, first sample R and R/2") {
  SrttEstimator s;
  CHECK_FALSE(s.initialized());
  s.update(100'000);
  CHECK(s.srttUs() == 100'000);
  CHECK(s.rttvarUs() == 50'000);
  s.update(200'000);
  // srtt = 100000 - 12500 + 25000; rttvar = 50000 - 12500 + 25000
  CHECK(s.srttUs() == 112'500);
  CHECK(s.rttvarUs() == 62'500);
  for (int i = 0; i < 200; ++i) s.update(40'000);
  CHECK(s.srttUs() >= 40'000);
  CHECK(s.srttUs() <= 40'010);
}

TEST_CASE("mmp: jitter in Q4 (RFC 3550) converges to a constant |D|") {
  JitterEstimator j;
  j.update(1600);
  CHECK(j.jitterUs() == 100);  // 1600 / 16
  for (int i = 0; i < 300; ++i) j.update(i % 2 == 0 ? 2000 : -2000);
  CHECK(j.jitterUs() >= 1980);
  CHECK(j.jitterUs() <= 2000);
  j.update(int64_t{1} << 62U);  // absurd spacing saturates, no overflow
  CHECK(j.jitterUs() > 0);
}

TEST_CASE("mmp: ETX and trend labels") {
  CHECK(computeEtx(1.0, 1.0) == 1.0);
  CHECK(computeEtx(0.5, 0.5) == 4.0);
  CHECK(computeEtx(0.0, 1.0) == 100.0);
  CHECK(computeEtx(0.05, 0.05) == 100.0);
  DualEwma e;
  e.update(10.0);
  CHECK((trendOf(e) == Trend::STABLE));
  e.update(20.0);  // short 12.5, long 10.3125
  CHECK((trendOf(e) == Trend::RISING));
  DualEwma f;
  f.update(10.0);
  f.update(0.0);
  CHECK((trendOf(f) == Trend::FALLING));
  CHECK(std::string(toString(Trend::FALLING)) == "falling");
}

TEST_CASE("mmp: OWD trend is the least-squares slope x 1000") {
  OwdTrend t(4);
  CHECK(t.trendUsPerSec() == 0);
  for (uint32_t i = 1; i <= 6; ++i) t.push(i, int64_t{i} * 3);  // slope 3 per sample
  CHECK(t.trendUsPerSec() == 3000);
  OwdTrend flat(8);
  for (uint32_t i = 1; i <= 8; ++i) flat.push(i, 500);
  CHECK(flat.trendUsPerSec() == 0);
}

TEST_CASE("mmp: sender report covers the interval and starts a new one") {
  MmpSender s;
  CHECK_FALSE(s.reportDue(0));
  CHECK_FALSE(s.buildReport(0).has_value());
  s.recordSent(7, 100, 60);
  s.recordSent(8, 150, 40);
  CHECK(s.reportDue(0));  // first report: at once
  const auto sr = s.buildReport(1000);
  REQUIRE(sr.has_value());
  CHECK(sr->intervalStartCounter == 7);
  CHECK(sr->intervalEndCounter == 8);
  CHECK(sr->intervalStartTimestamp == 100);
  CHECK(sr->intervalEndTimestamp == 150);
  CHECK(sr->intervalBytesSent == 100);
  CHECK(sr->cumulativePacketsSent == 2);
  CHECK(sr->cumulativeBytesSent == 100);
  s.recordSent(9, 300, 10);
  CHECK_FALSE(s.reportDue(1100));  // cold start: 200 ms
  CHECK(s.reportDue(1200));
  s.recordSendFailure();
  CHECK_FALSE(s.reportDue(1300));  // ×2 after one failure
  CHECK(s.reportDue(1400));
  const auto next = s.buildReport(1400);
  REQUIRE(next.has_value());
  CHECK(next->intervalStartCounter == 9);
  CHECK(next->cumulativePacketsSent == 3);
}

TEST_CASE("mmp: report intervals follow SRTT with the cold-start floor") {
  CHECK(mmpReportIntervalMs(50'000, 1, 1) == 200);      // floor 200 during cold start
  CHECK(mmpReportIntervalMs(50'000, 1, 6) == 1000);     // then 1000
  CHECK(mmpReportIntervalMs(3'000'000, 2, 6) == 5000);  // cap 5 s
  CHECK(mmpReportIntervalMs(1'500'000, 1, 6) == 1500);
  MmpReceiver r(32);
  for (int i = 0; i < 5; ++i) r.updateIntervalFromSrtt(50'000);
  CHECK(r.reportIntervalMs() == 200);
  r.updateIntervalFromSrtt(50'000);
  CHECK(r.reportIntervalMs() == 1000);
}

TEST_CASE("mmp: receiver counts gaps as loss bursts, reordering and CE") {
  MmpReceiver r(32);
  // counters 0,1,2 then 5 (gap 2), 6, then 10,11 (gap 3), then 4 late.
  uint64_t t = 1000;
  for (const uint64_t c : {0U, 1U, 2U, 5U, 6U, 10U, 11U}) {
    t += 10;
    r.recordReceived(c, static_cast<uint32_t>(t), 100, c == 6, t);
  }
  t += 10;
  r.recordReceived(4, 50, 100, false, t);
  const auto rr = r.buildReport(t + 5);
  REQUIRE(rr.has_value());
  CHECK(rr->highestCounter == 11);
  CHECK(rr->cumulativePacketsRecv == 8);
  CHECK(rr->cumulativeBytesRecv == 800);
  CHECK(rr->intervalPacketsRecv == 8);
  CHECK(rr->intervalBytesRecv == 800);
  CHECK(rr->burstLossCount == 2);
  CHECK(rr->maxBurstLoss == 3);
  CHECK(rr->meanBurstLoss == 640);  // 2.5 × 256
  CHECK(rr->cumulativeReorderCount == 1);
  CHECK(rr->ecnCeCount == 1);
  CHECK(rr->timestampEcho == 50);  // the latest frame's timestamp
  CHECK(rr->dwellTime == 5);
  CHECK_FALSE(r.buildReport(t + 10).has_value());  // nothing new
  r.recordReceived(12, 2000, 100, false, t + 70'000);
  const auto late = r.buildReport(t + 140'000);  // dwell > 65535 ms
  REQUIRE(late.has_value());
  CHECK(late->timestampEcho == 0);
  CHECK(late->dwellTime == 65535);
  CHECK(late->burstLossCount == 0);  // per interval
  CHECK(r.lossBursts() == 2);        // since the link came up
}

fmp::ReceiverReport report(uint64_t highest, uint64_t packets, uint32_t echo, uint16_t dwell) {
  fmp::ReceiverReport rr;
  rr.highestCounter = highest;
  rr.cumulativePacketsRecv = packets;
  rr.cumulativeBytesRecv = packets * 100;
  rr.timestampEcho = echo;
  rr.dwellTime = dwell;
  return rr;
}

TEST_CASE("mmp: metrics from ReceiverReports: RTT, delivery, ETX, stale reports") {
  MmpMetrics m;
  CHECK(m.onReceiverReport(report(10, 11, 1000, 20), 1120, 5000) == ReportVerdict::ACCEPTED);
  REQUIRE(m.srttMs().has_value());
  CHECK(*m.srttMs() == 100.0);  // 1120 - (1000 + 20)
  CHECK(m.etx() == 1.0);
  // 100 more counters, 80 more packets: forward delivery 0.8.
  CHECK(m.onReceiverReport(report(110, 91, 2000, 0), 2100, 6000) == ReportVerdict::ACCEPTED);
  CHECK(m.deliveryForward() == doctest::Approx(0.8));
  CHECK(m.lossRate() == doctest::Approx(0.2));
  CHECK(m.etx() == doctest::Approx(1.25));
  CHECK(m.goodputBps() == doctest::Approx(8000.0));  // 8000 bytes in 1 s
  // Repeated and regressed counters are ignored.
  CHECK(m.onReceiverReport(report(110, 91, 2000, 0), 2200, 7000) == ReportVerdict::STALE);
  CHECK(m.onReceiverReport(report(100, 95, 2000, 0), 2200, 7000) == ReportVerdict::STALE);
  // No echo, or an echo from the future: no RTT sample.
  CHECK(m.onReceiverReport(report(120, 101, 0, 0), 2300, 8000) == ReportVerdict::ACCEPTED);
  CHECK(m.onReceiverReport(report(130, 111, 9000, 0), 2400, 9000) == ReportVerdict::ACCEPTED);
  CHECK(m.rttSamples() == 2);
  CHECK(m.rttArithFailures() == 1);  // the echo from the future
  CHECK(m.rttZeroSamples() == 0);
  // Reverse delivery: 50 of the peer's 100 counters arrived.
  m.updateReverseDelivery(10, 10);
  m.updateReverseDelivery(60, 110);
  CHECK(m.deliveryReverse() == doctest::Approx(0.5));
  CHECK(m.etx() == doctest::Approx(2.0));  // forward 1.0 on the last report
}

TEST_CASE("mmp: a 0 ms RTT counts as a zero sample, a wrapped or future echo as an arith failure") {
  MmpMetrics m;
  // echo + dwell == our clock: a sub-millisecond round trip truncated to 0.
  CHECK(m.onReceiverReport(report(10, 10, 1000, 20), 1020, 5000) == ReportVerdict::ACCEPTED);
  CHECK(m.rttZeroSamples() == 1);
  CHECK(m.rttArithFailures() == 0);
  // echo + dwell after our clock.
  CHECK(m.onReceiverReport(report(20, 20, 1000, 30), 1020, 6000) == ReportVerdict::ACCEPTED);
  // echo + dwell past 32 bits.
  CHECK(m.onReceiverReport(report(30, 30, UINT32_MAX, 5), 1030, 7000) == ReportVerdict::ACCEPTED);
  CHECK(m.rttArithFailures() == 2);
  CHECK(m.rttZeroSamples() == 1);
  CHECK(m.rttSamples() == 0);
  CHECK_FALSE(m.srttMs().has_value());
  CHECK_FALSE(m.lastRttMs().has_value());
  // A stale report's echo is not looked at.
  CHECK(m.onReceiverReport(report(30, 30, 1000, 0), 1000, 8000) == ReportVerdict::STALE);
  CHECK(m.rttZeroSamples() == 1);
  // A positive RTT is a sample again.
  CHECK(m.onReceiverReport(report(40, 40, 1000, 0), 1007, 9000) == ReportVerdict::ACCEPTED);
  CHECK(m.rttSamples() == 1);
  CHECK(m.lastRttMs() == 7u);
}

TEST_CASE("mmp: link cost is ETX x (1 + SRTT/100), 1.0 before the first RTT") {
  LinkMmp l(MmpMode::FULL, 32, true);
  CHECK(l.cost() == 1.0);
  CHECK_FALSE(l.hasSrtt());
  CHECK(l.onReceiverReport(report(10, 11, 1000, 0), 1050, 5000));  // first SRTT: 50 ms
  CHECK(l.cost() == doctest::Approx(1.5));
  CHECK_FALSE(l.onReceiverReport(report(20, 21, 1100, 0), 1150, 6000));  // not the first
  const LinkMetrics s = l.snapshot();
  CHECK(s.linkCost == doctest::Approx(1.5));
  REQUIRE(s.srttMs.has_value());
  CHECK(*s.srttMs == 50.0);
  CHECK(s.receiverReportsRecv == 2);
  CHECK((s.mode == MmpMode::FULL));
  CHECK(s.spinInitiator);
}

TEST_CASE("mmp: modes decide which reports are built") {
  for (const MmpMode mode : {MmpMode::FULL, MmpMode::LIGHTWEIGHT, MmpMode::MINIMAL}) {
    LinkMmp l(mode, 32, false);
    l.onFrameSent(0, 10, 50);
    l.onFrameReceived(0, 10, 50, false, 100);
    CHECK(l.takeSenderReport(100).has_value() == (mode == MmpMode::FULL));
    CHECK(l.takeReceiverReport(100).has_value() == (mode != MmpMode::MINIMAL));
  }
  CHECK(std::string(toString(MmpMode::LIGHTWEIGHT)) == "lightweight");
}

}  // namespace
}  // namespace fips::router::link
