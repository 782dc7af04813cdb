// SPDX-License-Identifier: MIT
// ProbeJob on a fake clock: when it polls, its budgets, the warmups it
// sums, what it keeps from the first call, settling and cancel.
#include "router/control/probe-job.h"

#include <string>

#include <doctest/doctest.h>

#include "router/control/probe-test-report.h"

namespace fips::router::control {
namespace {

TEST_CASE("ProbeJob: the first call starts the lookup; it polls every 250 ms while a stage runs") {
  ProbeJob job(1000);
  CHECK(job.startLookup());
  TestReport first;
  first.stage(first.r.initSession(), "not_reached").stage(first.r.initRtt(), "not_reached");
  job.onReport(first.get(), 1010);
  CHECK_FALSE(job.startLookup());
  CHECK_FALSE(job.finished());
  CHECK(job.nextPollMs() == 1010 + PROBE_POLL_INTERVAL_MS);
  // ladder 1 + 2 s, the slack, session and rtt budgets
  CHECK(job.budgetMs() ==
        3000 + PROBE_DISCOVERY_SLACK_MS + PROBE_SESSION_BUDGET_MS + PROBE_RTT_BUDGET_MS);
  CHECK(job.overall() == "running");
}

TEST_CASE("ProbeJob: a report with no stage running ends it with the report's verdict") {
  ProbeJob job(0);
  TestReport ok("ok");
  job.onReport(ok.get(), 40);
  CHECK(job.finished());
  CHECK(job.overall() == "ok");
  CHECK(job.elapsedMs(9999) == 40);  // frozen at the end
}

TEST_CASE("ProbeJob: discovery gets the ladder plus slack from the start") {
  ProbeJob job(0);
  TestReport looking("not_reached");
  looking.stage(looking.r.initBloom(), "ok").stage(looking.r.initDiscovery(), "running");
  job.onReport(looking.get(), 0);
  job.onReport(looking.get(), 3999);
  CHECK_FALSE(job.finished());
  job.onReport(looking.get(), 4000);
  CHECK(job.finished());
  CHECK(job.overall() == "partial");  // discovery still running: the reference's partial
}

TEST_CASE("ProbeJob: the session budget runs from when the handshake was first seen") {
  ProbeJob job(0);
  TestReport handshaking("ok");
  handshaking.stage(handshaking.r.initSession(), "running")
      .stage(handshaking.r.initRtt(), "running");
  handshaking.r.setSessionOpened(true);
  job.onReport(handshaking.get(), 2000);
  handshaking.r.setSessionOpened(false);  // a later call: not the call that opened it
  job.onReport(handshaking.get(), 2000 + PROBE_SESSION_BUDGET_MS - 1);
  CHECK_FALSE(job.finished());
  job.onReport(handshaking.get(), 2000 + PROBE_SESSION_BUDGET_MS);
  REQUIRE(job.finished());
  CHECK(job.report().getSession().getReason() == "handshake_timeout");
  CHECK(job.report().getRtt().getVerdict() == "not_reached");
  CHECK(job.report().getSessionOpened());  // the probe's session, on every later call
  CHECK(job.overall() == "failed");
}

TEST_CASE("ProbeJob: the rtt budget, warmups summed, no_report or no_echo at its end") {
  ProbeJob job(0);
  TestReport m;
  m.measuring();
  m.r.setWarmupsSent(1);
  job.onReport(m.get(), 100);
  job.onReport(m.get(), 1100);  // the one warmup retry
  m.r.setWarmupsSent(0);
  job.onReport(m.get(), 100 + PROBE_RTT_BUDGET_MS - 1);
  CHECK_FALSE(job.finished());
  m.r.setRttReportsSeen(2);
  job.onReport(m.get(), 100 + PROBE_RTT_BUDGET_MS);
  REQUIRE(job.finished());
  CHECK(job.report().getWarmupsSent() == 2);
  CHECK(job.report().getRtt().getReason() == "no_echo");
  CHECK(job.overall() == "partial");
  m.r.setRttReportsSeen(0);
  job.onReport(m.get(), 99999);  // ignored once finished
  CHECK(job.report().getRtt().getReason() == "no_echo");
}

TEST_CASE("ProbeJob: a timeout bounds the whole probe") {
  ProbeJob job(0, 500);
  TestReport m;
  m.measuring();
  job.onReport(m.get(), 0);
  CHECK(job.budgetMs() == 500);
  job.onReport(m.get(), 500);
  REQUIRE(job.finished());
  CHECK(job.report().getRtt().getReason() == "no_report");
}

TEST_CASE("ProbeJob: coordinates its own lookup brought read as from the lookup") {
  ProbeJob job(0);
  TestReport first("not_reached");
  first.stage(first.r.initBloom(), "ok").stage(first.r.initDiscovery(), "running");
  first.r.setLookupIssued(true);
  job.onReport(first.get(), 0);
  TestReport later("ok");
  later.r.setDiscoverySource("cache");
  later.stage(later.r.initBloom(), "skipped");
  job.onReport(later.get(), 250);
  CHECK(job.report().getDiscoverySource() == "lookup");
  CHECK(job.report().getLookupIssued());
  CHECK(job.report().getBloom().getVerdict() == "ok");
}

TEST_CASE("ProbeJob: cancel settles the running stages at once and reads cancelled") {
  ProbeJob job(0);
  TestReport m;
  m.measuring();
  job.onReport(m.get(), 0);
  job.cancel(300);
  REQUIRE(job.finished());
  CHECK(job.cancelled());
  CHECK(job.overall() == "cancelled");
  CHECK(job.report().getRtt().getVerdict() == "failed");
  CHECK(job.elapsedMs(5000) == 300);
  job.cancel(400);  // no-op once finished
  CHECK(job.elapsedMs(5000) == 300);
}

TEST_CASE("settleProbe: stages still running fail as the reference's budgets") {
  TestReport t;
  t.measuring();
  settleProbe(t.r);
  CHECK(t.get().getRtt().getVerdict() == "failed");
  CHECK(t.get().getRtt().getReason() == "no_report");
  t.r.setRttReportsSeen(2);
  t.stage(t.r.initRtt(), "running");
  settleProbe(t.r);
  CHECK(t.get().getRtt().getReason() == "no_echo");
  t.stage(t.r.initSession(), "running");
  settleProbe(t.r);
  CHECK(t.get().getSession().getReason() == "handshake_timeout");
  CHECK(t.get().getRtt().getVerdict() == "not_reached");
}

TEST_CASE("settleProbe: the rtt failure is classified on the counters' growth since the base") {
  TestReport t;
  t.measuring();
  const auto settle = [&](const ProbeRttBase& base = {}) {
    t.stage(t.r.initRtt(), "running");
    settleProbe(t.r, base);
    CHECK(t.get().getRtt().getVerdict() == "failed");
    CHECK(t.get().getRtt().getDetail().size() != 0);
    return std::string(t.get().getRtt().getReason());
  };
  CHECK(settle() == "no_report");
  t.r.setRttReportsSeen(3);
  CHECK(settle() == "no_echo");
  t.r.setRttZeroSamples(3);
  CHECK(settle() == "sub_millisecond");
  CHECK(std::string(t.get().getRtt().getDetail()).find("under 1 ms") != std::string::npos);
  t.r.setRttArithFailures(1);
  CHECK(settle() == "bad_timestamp_echo");  // an anomaly outranks an artifact
  // What the session counted before the probe started does not count.
  CHECK(settle({3, 3, 1}) == "no_report");
  CHECK(settle({2, 3, 1}) == "no_echo");
  CHECK(settle({2, 2, 1}) == "sub_millisecond");
  CHECK(settle({5, 9, 9}) == "no_report");  // counters that went back (a new session)
}

TEST_CASE("ProbeJob: the first report's rtt counters are the base of the verdict") {
  ProbeJob job(0);
  TestReport m;
  m.measuring();
  m.r.setRttReportsSeen(4);
  m.r.setRttZeroSamples(4);  // an existing session's loopback history
  job.onReport(m.get(), 0);
  m.r.setRttReportsSeen(6);
  job.onReport(m.get(), PROBE_RTT_BUDGET_MS);
  REQUIRE(job.finished());
  CHECK(job.report().getRtt().getReason() == "no_echo");
  CHECK(job.report().getRttZeroSamples() == 4);  // the report keeps the session's counts

  ProbeJob zero(0);
  m.r.setRttReportsSeen(4);
  zero.onReport(m.get(), 0);
  m.r.setRttReportsSeen(6);
  m.r.setRttZeroSamples(6);
  zero.onReport(m.get(), PROBE_RTT_BUDGET_MS);
  REQUIRE(zero.finished());
  CHECK(zero.report().getRtt().getReason() == "sub_millisecond");

  ProbeJob bad(0);
  bad.onReport(m.get(), 0);
  m.r.setRttReportsSeen(7);
  m.r.setRttArithFailures(1);
  bad.onReport(m.get(), PROBE_RTT_BUDGET_MS);
  REQUIRE(bad.finished());
  CHECK(bad.report().getRtt().getReason() == "bad_timestamp_echo");
}

// A session that existed when the probe started, with an SRTT from before:
// the data plane says rtt ok with the session's counts.
TestReport& existingWithSrtt(TestReport& t, uint64_t samples, uint64_t reports) {
  t.measuring();
  t.stage(t.r.initSession(), "skipped").stage(t.r.initRtt(), "ok");
  t.r.setSessionPreexisting(true);
  t.r.setSessionEstablished(true);
  t.r.setHasSrtt(true);
  t.r.setSrttMs(12.5);
  t.r.setRttSamples(samples);
  t.r.setRttReportsSeen(reports);
  return t;
}

TEST_CASE("ProbeJob: an existing session's old SRTT is no answer; a sample taken since is") {
  ProbeJob job(0);
  TestReport t;
  existingWithSrtt(t, 7, 7);
  job.onReport(t.get(), 0);
  CHECK_FALSE(job.finished());
  CHECK(job.report().getRtt().getVerdict() == "running");
  CHECK_FALSE(job.report().getHasSrtt());
  CHECK(job.report().getSessionPreexisting());
  job.onReport(t.get(), 250);
  CHECK_FALSE(job.finished());
  CHECK(job.overall() == "running");
  t.r.setRttSamples(8);  // a ReceiverReport echoed a frame sent since
  t.r.setRttReportsSeen(8);
  job.onReport(t.get(), 500);
  REQUIRE(job.finished());
  CHECK(job.report().getRtt().getVerdict() == "ok");
  CHECK(job.report().getHasSrtt());
  CHECK(job.report().getSession().getVerdict() == "skipped");
  CHECK(job.overall() == "ok");
}

TEST_CASE("ProbeJob: with no new sample on an existing session, rtt fails at its budget's end") {
  ProbeJob job(0);
  TestReport t;
  existingWithSrtt(t, 7, 9);
  job.onReport(t.get(), 0);
  job.onReport(t.get(), PROBE_RTT_BUDGET_MS - 1);
  CHECK_FALSE(job.finished());
  job.onReport(t.get(), PROBE_RTT_BUDGET_MS);  // a frozen target: the counts never grow
  REQUIRE(job.finished());
  CHECK(job.report().getRtt().getVerdict() == "failed");
  CHECK(job.report().getRtt().getReason() == "no_report");
  CHECK_FALSE(job.report().getHasSrtt());
  CHECK(job.overall() == "partial");
}

TEST_CASE(
    "ProbeJob: the session a probe opened is ok on its later calls, pre-existing to the next") {
  ProbeJob opener(0);
  TestReport opening;
  opening.measuring();
  opening.stage(opening.r.initSession(), "running");
  opening.r.setSessionOpened(true);
  opener.onReport(opening.get(), 0);
  TestReport later;
  existingWithSrtt(later, 1, 1);  // the data plane: an existing session
  opener.onReport(later.get(), 250);
  REQUIRE(opener.finished());
  CHECK(opener.report().getSession().getVerdict() == "ok");
  CHECK_FALSE(opener.report().getSessionPreexisting());
  CHECK(opener.report().getSessionOpened());
  CHECK(opener.overall() == "ok");  // every sample is new on a session it opened

  ProbeJob next(1000);
  next.onReport(later.get(), 1000);
  CHECK(next.report().getSession().getVerdict() == "skipped");
  CHECK(next.report().getSessionPreexisting());
  CHECK_FALSE(next.report().getSessionOpened());
  CHECK(next.report().getRtt().getVerdict() == "running");
}

}  // namespace
}  // namespace fips::router::control
