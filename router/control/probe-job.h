// SPDX-License-Identifier: MIT
// ProbeJob: one probe's orchestration, sans-IO. The data plane evaluates a
// probe report per call (control.capnp probe @19, router/daemon/probe.h);
// the job decides when to call again, applies the stage budgets (the
// reference's src/proto/probe/limits.rs floors), sums the warmups the calls
// sent, keeps what the first call found (its lookup, the session it
// opened, the RTT counters' base) and settles the verdict at the end. On a
// session that existed when the probe started, rtt is ok only on an RTT
// sample taken since (rttSamples grew), as the reference's probe: an SRTT
// from before the probe reads running (the data plane sends a warmup each
// call) and fails at the budget's end as settleProbe classifies. The caller makes the calls
// and reads the clock (monotonic ms): fipsctl probe sleeps between them,
// the control thread's probe registry schedules them on its event loop.
// Reports come from the data-plane thread (trusted).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

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
// rttZeroSamples, rttArithFailures, rttSamples) when a probe started:
// the report's are the session's absolute counts, a probe judges what came
// since (the reference's probe takes the same base).
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
  // Takes the report of a call answered at nowMs. The job finishes (and
  // settles) when no stage still runs within its budget, or the probe's
  // budget is spent. Ignored once finished.
  void onReport(schema::ProbeReport::Reader report, uint64_t nowMs);
  // Ends the job now with the latest report (still-running stages settle
  // as at a budget's end); overall() then reads "cancelled". No-op once
  // finished.
  void cancel(uint64_t nowMs);
  // Ends the job now as at the end of its budget (the data plane stopped
  // answering). No-op once finished.
  void end(uint64_t nowMs);

  bool finished() const { return finishedAtMs_.has_value(); }
  bool cancelled() const { return cancelled_; }
  bool hasReport() const { return latest_ != nullptr; }
  // When the next call is due (monotonic ms); meaningful while running with
  // a report.
  uint64_t nextPollMs() const { return lastReportMs_ + PROBE_POLL_INTERVAL_MS; }
  // The whole probe's budget (ms): the timeout given, else the lookup
  // ladder + PROBE_DISCOVERY_SLACK_MS + the session and rtt budgets; 0
  // before the first report (the ladder comes with it).
  uint64_t budgetMs() const { return budgetMs_; }
  // How long the probe ran (ms), frozen once finished.
  uint64_t elapsedMs(uint64_t nowMs) const;
  std::optional<uint64_t> finishedAtMs() const { return finishedAtMs_; }
  // The latest report with what earlier calls found merged in (the lookup
  // this probe issued, the session it opened, warmups summed); settled once
  // finished. Requires hasReport().
  schema::ProbeReport::Reader report() const;
  // "running", "cancelled", or the settled report's verdict (probeOverall).
  std::string overall() const;

 private:
  uint64_t startMs_;
  uint64_t timeoutMs_;
  uint64_t budgetMs_ = 0;
  uint64_t discoveryMs_ = 0;  // the discovery budget, from the start
  std::unique_ptr<capnp::MallocMessageBuilder> first_;
  ProbeRttBase rttBase_;         // the first report's counters
  bool sessionExisted_ = false;  // the first report found a session
  std::unique_ptr<capnp::MallocMessageBuilder> latest_;
  uint64_t lastReportMs_ = 0;
  uint32_t warmups_ = 0;
  bool sessionOpened_ = false;
  std::optional<uint64_t> sessionSinceMs_;
  std::optional<uint64_t> rttSinceMs_;
  std::optional<uint64_t> finishedAtMs_;
  bool cancelled_ = false;
};

}  // namespace fips::router::control
