// SPDX-License-Identifier: MIT
// ProbeJob: one probe's orchestration, sans-IO. The data plane evaluates a
// probe report per call (control.capnp probe @19, router/control/probe/probe.h);
// the job decides when to call again, applies the stage budgets (the
// reference's src/proto/probe/limits.rs floors), sums the warmups the calls
// sent, keeps what the first call found (its lookup and fanout, the
// session it opened), times each stage (elapsed_ms) and settles the
// verdict at the end. rtt is ok only on an RTT sample taken since the rtt
// stage started (the session MMP's rttSamples grew since the first report
// with the session established), as the reference's probe; the report's rtt
// counters are those deltas. A session the probe opened stays its own
// while the data plane sees the same entry (createdMs), initiated by us,
// with no Data on it; once the verdict is settled, one tick later (the
// reference's grace tick; at once on cancel) the job asks for a teardown
// call that removes it, and the report's cleanup says what became of it.
// The caller makes the calls and reads the clock (monotonic ms): fipsctl
// probe sleeps between them, the control thread's probe registry schedules
// them on its event loop. Reports come from the data-plane thread
// (trusted).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <capnp/message.h>

#include "control.capnp.h"

namespace fips::router::control {

// How often a running probe asks the data plane again (ms).
constexpr uint64_t PROBE_POLL_INTERVAL_MS = 250;
// Stage budgets (ms), the reference's floors: SESSION covers two handshake
// resends, RTT the remote's 1 s session MMP cold start plus two of its
// ticks; the discovery budget is the node's lookup ladder plus this slack.
constexpr uint64_t PROBE_SESSION_BUDGET_MS = 5'000;
constexpr uint64_t PROBE_RTT_BUDGET_MS = 3'000;
constexpr uint64_t PROBE_DISCOVERY_SLACK_MS = 1'000;

// The session MMP's RTT counters (control.capnp ProbeReport rttReportsSeen,
// rttZeroSamples, rttArithFailures, rttSamples) when the rtt stage
// started: the data plane reports the session's absolute counts, a probe
// judges and reports what came since (the reference's probe takes the same
// base).
struct ProbeRttBase {
  uint64_t reportsSeen = 0;
  uint64_t zeroSamples = 0;
  uint64_t arithFailures = 0;
  uint64_t samples = 0;
};

// Stages still running when a probe ends fail as the reference's budgets
// do: session "handshake_timeout" (rtt then not reached); rtt, on the
// counters' growth since base (the reference's classify_rtt_failure):
// "bad_timestamp_echo" (an echo failed arithmetic), else "sub_millisecond"
// (an echo measured 0 ms), else "no_echo" (reports, no usable echo), else
// "no_report" (no ReceiverReport came). Each sets the stage's detail.
void settleProbe(schema::ProbeReport::Builder report, const ProbeRttBase& base = {});

class ProbeJob {
 public:
  // startMs: when the probe starts (monotonic ms). timeoutMs: a bound on
  // the whole probe, or 0 for the stage budgets' sum (budgetMs()).
  explicit ProbeJob(uint64_t startMs, uint64_t timeoutMs = 0);

  // True until the first report: that call starts the lookup.
  bool startLookup() const { return !first_; }
  // The next call's ownedSessionMs: the createdMs of the session this probe
  // opened, 0 while it opened none (a call may then open one).
  uint64_t ownedSessionMs() const { return openedSessionMs_.value_or(0); }
  // True when the next call is the teardown call (probe @19 teardown).
  bool teardownDue() const { return teardownAtMs_.has_value() && !finished(); }
  // Takes the report of a call answered at nowMs. The verdict settles when
  // no stage still runs within its budget (stages settled then get their
  // elapsed_ms), or the probe's budget is spent (they get none); the job
  // finishes then, or after the teardown call when it owns a session.
  // Ignored once settled.
  void onReport(schema::ProbeReport::Reader report, uint64_t nowMs);
  // The teardown call's answer (its report's cleanup: "torn_down", "gone",
  // "replaced", "adopted_by_traffic"; anything else: it did not run):
  // finishes the job. Ignored unless teardownDue().
  void onTeardown(std::string_view outcome, uint64_t nowMs);
  // Settles the job now with the latest report (still-running stages fail
  // as at a budget's end, with no elapsed_ms); overall() then reads
  // "cancelled". The teardown, if any, is due at once. No-op once settled.
  void cancel(uint64_t nowMs);
  // Settles the job now as at the end of the probe's budget. No-op once
  // settled.
  void end(uint64_t nowMs);
  // The data plane stopped answering: settles as end() and finishes
  // without a teardown call.
  void abandon(uint64_t nowMs);

  bool settled() const { return settledAtMs_.has_value(); }
  bool finished() const { return finishedAtMs_.has_value(); }
  bool cancelled() const { return cancelled_; }
  bool hasReport() const { return latest_ != nullptr; }
  // When the next call is due (monotonic ms): a poll interval after the
  // last report, or the teardown's time; meaningful while not finished,
  // with a report.
  uint64_t nextPollMs() const {
    return teardownAtMs_.value_or(lastReportMs_ + PROBE_POLL_INTERVAL_MS);
  }
  // The whole probe's budget (ms): the timeout given, else the lookup
  // ladder + PROBE_DISCOVERY_SLACK_MS + the session and rtt budgets; 0
  // before the first report (the ladder comes with it).
  uint64_t budgetMs() const { return budgetMs_; }
  // How long the probe ran (ms), frozen once finished.
  uint64_t elapsedMs(uint64_t nowMs) const;
  std::optional<uint64_t> finishedAtMs() const { return finishedAtMs_; }
  // The latest report with what earlier calls found merged in (the lookup
  // this probe issued and its fanout, the session it opened, warmups
  // summed, the rtt counters as deltas, each stage's elapsedMs, cleanup);
  // settled once settled(). Requires hasReport().
  schema::ProbeReport::Reader report() const;
  // "running" until finished, then "cancelled" or the settled report's
  // verdict (probeOverall).
  std::string overall() const;

 private:
  // Settles the latest report; stampSettled: stages settled now get their
  // elapsed_ms (a stage budget's end), else none (cancel, the deadline).
  void settle(uint64_t nowMs, bool stampSettled);
  // Latches when each stage first reached a verdict and writes elapsedMs
  // (ms since the previous stage's) on the settled ones.
  void stampStages(uint64_t nowMs, bool stampNew);
  // Writes cleanup on the latest report.
  void writeCleanup();

  uint64_t startMs_;
  uint64_t timeoutMs_;
  uint64_t budgetMs_ = 0;
  uint64_t discoveryMs_ = 0;  // the discovery budget, from the start
  std::unique_ptr<capnp::MallocMessageBuilder> first_;
  std::optional<ProbeRttBase> rttBase_;  // at the first report with the session established
  std::unique_ptr<capnp::MallocMessageBuilder> latest_;
  uint64_t lastReportMs_ = 0;
  uint32_t warmups_ = 0;
  int32_t fanout_ = -1;                      // the lookup's, from the call that started it
  std::optional<uint64_t> openedSessionMs_;  // createdMs of the session this probe opened
  bool ownsSession_ = false;                 // ... and it is still the probe's own
  bool tornDown_ = false;
  std::string leftIntact_;  // "preexisting", "replaced", "adopted_by_traffic" or ""
  uint32_t tickMs_ = 1000;
  std::array<std::optional<uint64_t>, 5> stageDoneMs_;  // bloom .. rtt: first verdict
  std::optional<uint64_t> sessionSinceMs_;
  std::optional<uint64_t> rttSinceMs_;
  std::optional<uint64_t> settledAtMs_;
  std::optional<uint64_t> teardownAtMs_;
  std::optional<uint64_t> finishedAtMs_;
  bool cancelled_ = false;
};

}  // namespace fips::router::control
