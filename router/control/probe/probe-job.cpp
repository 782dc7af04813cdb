// SPDX-License-Identifier: MIT
// ProbeJob (see probe-job.h).
#include "router/control/probe/probe-job.h"

#include <algorithm>

#include <fmt/format.h>

#include "router/control/json/probe-json.h"

namespace fips::router::control {

namespace {

bool running(schema::ProbeStage::Reader s) {
  return s.getVerdict() == "running";
}

}  // namespace

void settleProbe(schema::ProbeReport::Builder r, const ProbeRttBase& base) {
  if (running(r.getSession())) {
    auto s = r.initSession();
    s.setVerdict("failed");
    s.setReason("handshake_timeout");
    s.setDetail("the session did not come up within the probe's budget");
    r.initRtt().setVerdict("not_reached");
    return;
  }
  if (!running(r.getRtt())) return;
  const auto since = [](uint64_t now, uint64_t then) { return now > then ? now - then : 0; };
  const uint64_t reports = since(r.getRttReportsSeen(), base.reportsSeen);
  const uint64_t zero = since(r.getRttZeroSamples(), base.zeroSamples);
  const uint64_t arith = since(r.getRttArithFailures(), base.arithFailures);
  auto s = r.initRtt();
  s.setVerdict("failed");
  if (arith > 0) {
    s.setReason("bad_timestamp_echo");
    s.setDetail(fmt::format(
        "{} of {} ReceiverReports echoed a timestamp later than our clock or past 32 bits: "
        "a stale or bogus echo, or a wrapped session clock; worth a look",
        arith, reports));
  } else if (zero > 0) {
    s.setReason("sub_millisecond");
    s.setDetail(
        fmt::format("{} ReceiverReports came, each echo measured under 1 ms: normal on loopback or "
                    "with the peer on this host",
                    reports));
  } else if (reports > 0) {
    s.setReason("no_echo");
    s.setDetail(
        fmt::format("{} ReceiverReports came but none carried a usable timestamp echo", reports));
  } else {
    s.setReason("no_report");
    s.setDetail("no session ReceiverReport came back within the probe's budget");
  }
}

ProbeJob::ProbeJob(uint64_t startMs, uint64_t timeoutMs)
    : startMs_(startMs), timeoutMs_(timeoutMs) {}

void ProbeJob::onReport(schema::ProbeReport::Reader report, uint64_t nowMs) {
  if (settled()) return;
  if (!first_) {
    first_ = std::make_unique<capnp::MallocMessageBuilder>();
    first_->setRoot(report);
    discoveryMs_ = PROBE_DISCOVERY_SLACK_MS;
    for (auto t : report.getAttemptTimeoutsSecs()) discoveryMs_ += uint64_t{t} * 1000;
    budgetMs_ =
        timeoutMs_ != 0 ? timeoutMs_ : discoveryMs_ + PROBE_SESSION_BUDGET_MS + PROBE_RTT_BUDGET_MS;
  }
  latest_ = std::make_unique<capnp::MallocMessageBuilder>();
  latest_->setRoot(report);
  lastReportMs_ = nowMs;
  warmups_ += report.getWarmupsSent();
  if (report.getTickMs() != 0) tickMs_ = report.getTickMs();
  if (fanout_ < 0) fanout_ = report.getLookupFanout();

  auto r = latest_->getRoot<schema::ProbeReport>();
  auto firstReport = first_->getRoot<schema::ProbeReport>().asReader();
  // Coordinates our own lookup brought in read as cached on later calls:
  // say where they came from.
  if (firstReport.getLookupIssued() && r.asReader().getDiscoverySource() == "cache") {
    r.setBloom(firstReport.getBloom());
    r.setLookupIssued(true);
    r.setDiscoverySource("lookup");
  }
  r.setLookupFanout(fanout_);

  // The session: the call that opened it names its entry; every later call
  // sees it as an existing one (the data plane cannot tell), and it stays
  // the probe's while it is that entry, initiated by us, with no Data on
  // it. A session the probe did not open is left intact as pre-existing.
  if (report.getSessionOpened() && !openedSessionMs_) {
    openedSessionMs_ = report.getSessionCreatedMs();
    ownsSession_ = true;
  } else if (ownsSession_ && !(report.getSessionPreexisting() &&
                               report.getSessionCreatedMs() == *openedSessionMs_ &&
                               report.getSessionInitiator() && report.getSessionProbeOnly())) {
    // As the reference's probe: any loss of ownership before the end
    // (another entry, the entry gone, or Data on it) reads "replaced".
    ownsSession_ = false;
    leftIntact_ = "replaced";
  }
  if (openedSessionMs_) {
    r.setSessionOpened(true);
    r.setSessionPreexisting(false);
    if (ownsSession_ && r.asReader().getSession().getVerdict() == "skipped") {
      r.initSession().setVerdict("ok");
    }
  } else if (report.getSessionPreexisting()) {
    leftIntact_ = "preexisting";
  }

  // rtt: the counters since the first report with the session established
  // (the rtt stage's start; the data plane reports counters only then), and
  // ok only on a sample taken since: an SRTT from before is no answer.
  if (!rttBase_ && report.getSessionEstablished()) {
    rttBase_ = ProbeRttBase{report.getRttReportsSeen(), report.getRttZeroSamples(),
                            report.getRttArithFailures(), report.getRttSamples()};
  }
  const ProbeRttBase base =
      rttBase_.value_or(ProbeRttBase{report.getRttReportsSeen(), report.getRttZeroSamples(),
                                     report.getRttArithFailures(), report.getRttSamples()});
  const auto since = [](uint64_t now, uint64_t then) { return now > then ? now - then : 0; };
  r.setRttReportsSeen(since(report.getRttReportsSeen(), base.reportsSeen));
  r.setRttZeroSamples(since(report.getRttZeroSamples(), base.zeroSamples));
  r.setRttArithFailures(since(report.getRttArithFailures(), base.arithFailures));
  r.setRttSamples(since(report.getRttSamples(), base.samples));
  if (rttBase_ && r.asReader().getRtt().getVerdict() == "ok" && r.getRttSamples() == 0) {
    auto s = r.initRtt();
    s.setVerdict("running");
    s.setDetail("waiting for an RTT sample taken after the probe started");
    r.setHasSrtt(false);
    r.setSrttMs(0);
    r.setLastRttMs(0);
  }
  r.setWarmupsSent(warmups_);

  const auto done = r.asReader();
  const bool sessionRunning = running(done.getSession());
  if (sessionRunning && !sessionSinceMs_) sessionSinceMs_ = nowMs;
  if (running(done.getRtt()) && !sessionRunning && !rttSinceMs_) rttSinceMs_ = nowMs;
  const bool discovering = running(done.getDiscovery()) && nowMs - startMs_ < discoveryMs_;
  const bool handshaking = sessionRunning && nowMs - *sessionSinceMs_ < PROBE_SESSION_BUDGET_MS;
  const bool measuring = running(done.getRtt()) && !sessionRunning &&
                         nowMs - rttSinceMs_.value_or(nowMs) < PROBE_RTT_BUDGET_MS;
  stampStages(nowMs, true);
  writeCleanup();
  if (nowMs - startMs_ >= budgetMs_) {
    settle(nowMs, false);  // the probe's deadline, not a stage's budget
  } else if (!(discovering || handshaking || measuring)) {
    settle(nowMs, true);
  }
}

void ProbeJob::stampStages(uint64_t nowMs, bool stampNew) {
  auto r = latest_->getRoot<schema::ProbeReport>();
  std::array<schema::ProbeStage::Builder, 5> stages{r.getBloom(), r.getDiscovery(), r.getPath(),
                                                    r.getSession(), r.getRtt()};
  uint64_t stageStart = startMs_;
  for (size_t i = 0; i < stages.size(); ++i) {
    const auto verdict = stages[i].asReader().getVerdict();
    const bool hasVerdict = verdict == "ok" || verdict == "skipped" || verdict == "failed";
    if (hasVerdict && !stageDoneMs_[i] && stampNew) stageDoneMs_[i] = nowMs;
    stages[i].setElapsedMs(
        hasVerdict && stageDoneMs_[i] ? static_cast<int64_t>(*stageDoneMs_[i] - stageStart) : -1);
    if (stageDoneMs_[i]) stageStart = std::max(stageStart, *stageDoneMs_[i]);
  }
}

void ProbeJob::writeCleanup() {
  latest_->getRoot<schema::ProbeReport>().setCleanup(tornDown_ ? "torn_down" : leftIntact_);
}

void ProbeJob::settle(uint64_t nowMs, bool stampSettled) {
  if (settled() || !latest_) return;
  settledAtMs_ = nowMs;
  settleProbe(latest_->getRoot<schema::ProbeReport>());  // the counters are deltas already
  stampStages(nowMs, stampSettled);
  if (ownsSession_) {
    // The reference's grace tick: a ReceiverReport still in flight lands on
    // a session that exists. None on cancel.
    teardownAtMs_ = cancelled_ ? nowMs : nowMs + std::max<uint32_t>(tickMs_, 1);
  } else {
    finishedAtMs_ = nowMs;
  }
  writeCleanup();
}

void ProbeJob::onTeardown(std::string_view outcome, uint64_t nowMs) {
  if (!teardownDue()) return;
  ownsSession_ = false;
  if (outcome == "torn_down" || outcome == "gone") {
    tornDown_ = true;  // "gone": no session is left (the reference's report says torn down)
  } else if (outcome == "replaced" || outcome == "adopted_by_traffic") {
    leftIntact_ = outcome;
  }
  finishedAtMs_ = nowMs;
  writeCleanup();
}

void ProbeJob::cancel(uint64_t nowMs) {
  if (settled()) return;
  cancelled_ = true;
  settle(nowMs, false);
  if (!latest_) finishedAtMs_ = nowMs;
}

void ProbeJob::end(uint64_t nowMs) {
  if (settled()) return;
  settle(nowMs, false);
  if (!latest_) finishedAtMs_ = nowMs;
}

void ProbeJob::abandon(uint64_t nowMs) {
  end(nowMs);
  if (!finished()) finishedAtMs_ = nowMs;
}

uint64_t ProbeJob::elapsedMs(uint64_t nowMs) const {
  return finishedAtMs_.value_or(nowMs) - startMs_;
}

schema::ProbeReport::Reader ProbeJob::report() const {
  return latest_->getRoot<schema::ProbeReport>().asReader();
}

std::string ProbeJob::overall() const {
  if (!finished()) return "running";
  if (cancelled_) return "cancelled";
  if (!latest_) return "running";
  return json::probeOverall(report());
}

}  // namespace fips::router::control
