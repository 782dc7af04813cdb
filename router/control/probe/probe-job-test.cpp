// SPDX-License-Identifier: MIT
// ProbeJob on a fake clock: when it polls, its budgets, the warmups it
// sums, what it keeps from the first call, settling and cancel.
#include "router/control/probe/probe-job.h"

#include <functional>
#include <string>

#include <doctest/doctest.h>

#include "router/control/probe/probe-test-report.h"

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
  handshaking.r.setSessionCreatedMs(2000);
  handshaking.r.setSessionInitiator(true);
  handshaking.r.setSessionProbeOnly(true);
  job.onReport(handshaking.get(), 2000);
  handshaking.r.setSessionOpened(false);  // a later call: not the call that opened it
  handshaking.r.setSessionPreexisting(true);
  job.onReport(handshaking.get(), 2000 + PROBE_SESSION_BUDGET_MS - 1);
  CHECK_FALSE(job.settled());
  job.onReport(handshaking.get(), 2000 + PROBE_SESSION_BUDGET_MS);
  REQUIRE(job.settled());
  CHECK(job.report().getSession().getReason() == "handshake_timeout");
  CHECK(job.report().getRtt().getVerdict() == "not_reached");
  CHECK(job.report().getSessionOpened());  // the probe's session, on every later call
  // The half-open session it opened is torn down too (the reference does).
  REQUIRE(job.teardownDue());
  job.onTeardown("torn_down", 2000 + PROBE_SESSION_BUDGET_MS + 1000);
  REQUIRE(job.finished());
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
  // The report's counters are deltas since the rtt stage started.
  CHECK(job.report().getRttReportsSeen() == 2);
  CHECK(job.report().getRttZeroSamples() == 0);

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

// The session the probe opened, as later calls see it (the data plane
// reports it as existing): entry createdMs 500, initiated by us, no Data.
TestReport& ownSession(TestReport& t, uint64_t samples) {
  existingWithSrtt(t, samples, samples);
  t.r.setSessionCreatedMs(500);
  t.r.setSessionInitiator(true);
  t.r.setSessionProbeOnly(true);
  return t;
}

// The call that opened it.
TestReport& opening(TestReport& t) {
  t.measuring();
  t.stage(t.r.initSession(), "running").stage(t.r.initRtt(), "running");
  t.r.setSessionEstablished(false);
  t.r.setSessionOpened(true);
  t.r.setSessionCreatedMs(500);
  t.r.setSessionInitiator(true);
  t.r.setSessionProbeOnly(true);
  t.r.setTickMs(1000);
  return t;
}

TEST_CASE(
    "ProbeJob: the session a probe opened is ok on its later calls, pre-existing to the next") {
  ProbeJob opener(0);
  TestReport open;
  opener.onReport(opening(open).get(), 0);
  CHECK(opener.ownedSessionMs() == 500);  // later calls name it and open no other
  TestReport later;
  ownSession(later, 1);
  opener.onReport(later.get(), 250);  // the rtt stage starts: a sample from before is no answer
  CHECK_FALSE(opener.settled());
  CHECK(opener.report().getRtt().getVerdict() == "running");
  ownSession(later, 2);
  opener.onReport(later.get(), 500);
  REQUIRE(opener.settled());
  CHECK(opener.report().getSession().getVerdict() == "ok");
  CHECK_FALSE(opener.report().getSessionPreexisting());
  CHECK(opener.report().getSessionOpened());
  CHECK(opener.report().getRttSamples() == 1);

  ProbeJob next(1000);
  next.onReport(later.get(), 1000);
  CHECK(next.report().getSession().getVerdict() == "skipped");
  CHECK(next.report().getSessionPreexisting());
  CHECK_FALSE(next.report().getSessionOpened());
  CHECK(next.report().getRtt().getVerdict() == "running");
  CHECK(next.ownedSessionMs() == 0);
}

TEST_CASE("ProbeJob: the session it opened is torn down a tick after the verdict") {
  ProbeJob job(0);
  TestReport open;
  job.onReport(opening(open).get(), 0);
  TestReport later;
  job.onReport(ownSession(later, 0).get(), 250);
  job.onReport(ownSession(later, 1).get(), 500);
  REQUIRE(job.settled());
  CHECK_FALSE(job.finished());  // the poll says running until the teardown
  CHECK(job.overall() == "running");
  CHECK(job.teardownDue());
  CHECK(job.nextPollMs() == 500 + 1000);  // the grace tick (tick_ms 1000)
  CHECK(job.report().getCleanup() == "");
  job.onReport(later.get(), 1500);  // a late probe report changes nothing
  CHECK(job.teardownDue());
  job.onTeardown("torn_down", 1500);
  REQUIRE(job.finished());
  CHECK_FALSE(job.teardownDue());
  CHECK(job.report().getCleanup() == "torn_down");
  CHECK(job.overall() == "ok");
  CHECK(job.elapsedMs(9999) == 1500);

  ProbeJob gone(0);  // it had gone already: nothing is left, as torn down
  gone.onReport(open.get(), 0);
  gone.onReport(later.get(), 250);
  gone.end(300);
  gone.onTeardown("gone", 1300);
  CHECK(gone.report().getCleanup() == "torn_down");
}

TEST_CASE("ProbeJob: the teardown call may find the session adopted or replaced") {
  for (const char* outcome : {"adopted_by_traffic", "replaced"}) {
    ProbeJob job(0);
    TestReport open;
    job.onReport(opening(open).get(), 0);
    job.end(100);
    REQUIRE(job.teardownDue());
    job.onTeardown(outcome, 1100);
    REQUIRE(job.finished());
    CHECK(job.report().getCleanup() == outcome);
  }
}

TEST_CASE("ProbeJob: a session that is no longer the probe's own is left, as replaced") {
  const auto lose = [](const std::function<void(TestReport&)>& change) {
    ProbeJob job(0);
    TestReport open;
    job.onReport(opening(open).get(), 0);
    TestReport later;
    ownSession(later, 0);
    change(later);
    job.onReport(later.get(), 250);
    job.end(300);
    CHECK(job.finished());  // no teardown call
    CHECK_FALSE(job.teardownDue());
    return std::string(job.report().getCleanup());
  };
  CHECK(lose([](TestReport& t) { t.r.setSessionCreatedMs(600); }) == "replaced");
  CHECK(lose([](TestReport& t) { t.r.setSessionInitiator(false); }) == "replaced");
  // Data on it before the end reads replaced too, as the reference's probe.
  CHECK(lose([](TestReport& t) { t.r.setSessionProbeOnly(false); }) == "replaced");
  CHECK(lose([](TestReport& t) { t.r.setSessionPreexisting(false); }) == "replaced");  // gone
}

TEST_CASE("ProbeJob: a session that was there before is left intact as pre-existing") {
  ProbeJob job(0);
  TestReport t;
  existingWithSrtt(t, 3, 3);
  job.onReport(t.get(), 0);
  existingWithSrtt(t, 4, 4);
  job.onReport(t.get(), 250);
  REQUIRE(job.finished());  // no teardown
  CHECK(job.ownedSessionMs() == 0);
  CHECK(job.report().getCleanup() == "preexisting");
}

TEST_CASE("ProbeJob: cancel tears down the session it opened at once") {
  ProbeJob job(0);
  TestReport open;
  job.onReport(opening(open).get(), 0);
  job.cancel(100);
  CHECK(job.settled());
  REQUIRE(job.teardownDue());
  CHECK(job.nextPollMs() == 100);  // no grace tick
  CHECK(job.overall() == "running");
  job.onTeardown("torn_down", 120);
  CHECK(job.overall() == "cancelled");
  CHECK(job.report().getCleanup() == "torn_down");
  CHECK(job.report().getSession().getReason() == "handshake_timeout");
  CHECK(job.report().getSession().getElapsedMs() == -1);  // cancelled: none

  ProbeJob abandoned(0);  // the data plane stopped answering: no teardown call
  abandoned.onReport(open.get(), 0);
  abandoned.abandon(100);
  CHECK(abandoned.finished());
  CHECK_FALSE(abandoned.teardownDue());
}

TEST_CASE("ProbeJob: rtt counters are deltas since the rtt stage started, zero before it") {
  ProbeJob job(0);
  TestReport waiting;
  waiting.measuring();
  waiting.r.setSessionEstablished(false);
  waiting.stage(waiting.r.initSession(), "running");
  waiting.r.setRttReportsSeen(9);  // no session established yet: no base
  job.onReport(waiting.get(), 0);
  CHECK(job.report().getRttReportsSeen() == 0);
  TestReport m;
  m.measuring();
  m.r.setRttReportsSeen(10);
  m.r.setRttSamples(10);
  m.r.setRttZeroSamples(10);
  m.r.setRttArithFailures(1);
  job.onReport(m.get(), 250);  // the base
  m.r.setRttReportsSeen(13);
  m.r.setRttSamples(12);
  m.r.setRttZeroSamples(11);
  job.onReport(m.get(), 500);
  CHECK(job.report().getRttReportsSeen() == 3);
  CHECK(job.report().getRttSamples() == 2);
  CHECK(job.report().getRttZeroSamples() == 1);
  CHECK(job.report().getRttArithFailures() == 0);
}

TEST_CASE("ProbeJob: each stage's elapsed_ms runs from the previous stage's verdict") {
  ProbeJob job(1000);
  TestReport looking("not_reached");
  looking.stage(looking.r.initBloom(), "ok").stage(looking.r.initDiscovery(), "running");
  looking.r.setLookupIssued(true);
  looking.r.setLookupFanout(3);
  job.onReport(looking.get(), 1000);
  CHECK(job.report().getBloom().getElapsedMs() == 0);
  CHECK(job.report().getDiscovery().getElapsedMs() == -1);  // running
  CHECK(job.report().getSession().getElapsedMs() == -1);    // not reached
  TestReport open;
  opening(open);
  open.r.setLookupFanout(-1);  // later calls issue no lookup
  open.r.setDiscoverySource("cache");
  job.onReport(open.get(), 3000);  // discovery answered; path computed; session opened
  CHECK(job.report().getDiscovery().getElapsedMs() == 2000);
  CHECK(job.report().getPath().getElapsedMs() == 0);
  CHECK(job.report().getLookupFanout() == 3);  // from the call that started the lookup
  TestReport later;
  job.onReport(ownSession(later, 0).get(), 3500);
  job.onReport(ownSession(later, 1).get(), 4250);
  REQUIRE(job.settled());
  CHECK(job.report().getSession().getElapsedMs() == 500);
  CHECK(job.report().getRtt().getElapsedMs() == 750);

  ProbeJob budget(0);  // a stage settled at its budget's end has its elapsed_ms
  TestReport m;
  m.measuring();
  budget.onReport(m.get(), 0);
  budget.onReport(m.get(), PROBE_RTT_BUDGET_MS);
  REQUIRE(budget.finished());
  CHECK(budget.report().getRtt().getVerdict() == "failed");
  CHECK(budget.report().getRtt().getElapsedMs() == PROBE_RTT_BUDGET_MS);
}

}  // namespace
}  // namespace fips::router::control
