// SPDX-License-Identifier: MIT
// ProbeJob (see probe-job.h).
#include "router/control/probe-job.h"

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
  if (finished()) return;
  if (!first_) {
    first_ = std::make_unique<capnp::MallocMessageBuilder>();
    first_->setRoot(report);
    rttBase_ = {report.getRttReportsSeen(), report.getRttZeroSamples(),
                report.getRttArithFailures(), report.getRttSamples()};
    sessionExisted_ = report.getSessionPreexisting();
    discoveryMs_ = PROBE_DISCOVERY_SLACK_MS;
    for (auto t : report.getAttemptTimeoutsSecs()) discoveryMs_ += uint64_t{t} * 1000;
    budgetMs_ =
        timeoutMs_ != 0 ? timeoutMs_ : discoveryMs_ + PROBE_SESSION_BUDGET_MS + PROBE_RTT_BUDGET_MS;
  }
  latest_ = std::make_unique<capnp::MallocMessageBuilder>();
  latest_->setRoot(report);
  lastReportMs_ = nowMs;
  warmups_ += report.getWarmupsSent();
  sessionOpened_ = sessionOpened_ || report.getSessionOpened();

  auto r = latest_->getRoot<schema::ProbeReport>();
  auto firstReport = first_->getRoot<schema::ProbeReport>().asReader();
  // Coordinates our own lookup brought in read as cached on later calls:
  // say where they came from.
  if (firstReport.getLookupIssued() && r.asReader().getDiscoverySource() == "cache") {
    r.setBloom(firstReport.getBloom());
    r.setLookupIssued(true);
    r.setDiscoverySource("lookup");
  }
  // A session this probe opened reads as the probe's on every later call
  // (the data plane reports any existing session as pre-existing).
  r.setSessionOpened(sessionOpened_);
  if (sessionOpened_) {
    r.setSessionPreexisting(false);
    if (r.asReader().getSession().getVerdict() == "skipped") r.initSession().setVerdict("ok");
  }
  // An SRTT the session had before the probe is no answer: wait for a
  // sample taken since.
  if (sessionExisted_ && r.asReader().getRtt().getVerdict() == "ok" &&
      r.getRttSamples() <= rttBase_.samples) {
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
  if (!(discovering || handshaking || measuring) || nowMs - startMs_ >= budgetMs_) end(nowMs);
}

void ProbeJob::cancel(uint64_t nowMs) {
  if (finished()) return;
  cancelled_ = true;
  end(nowMs);
}

void ProbeJob::end(uint64_t nowMs) {
  if (finished()) return;
  finishedAtMs_ = nowMs;
  if (latest_) settleProbe(latest_->getRoot<schema::ProbeReport>(), rttBase_);
}

uint64_t ProbeJob::elapsedMs(uint64_t nowMs) const {
  return finishedAtMs_.value_or(nowMs) - startMs_;
}

schema::ProbeReport::Reader ProbeJob::report() const {
  return latest_->getRoot<schema::ProbeReport>().asReader();
}

std::string ProbeJob::overall() const {
  if (cancelled_) return "cancelled";
  if (!finished() || !latest_) return "running";
  return json::probeOverall(report());
}

}  // namespace fips::router::control
