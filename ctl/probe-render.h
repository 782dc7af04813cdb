// SPDX-License-Identifier: MIT
// How fipsctl prints `probe`: the reference's probe report keys (target,
// bloom, discovery, path, session, rtt, cleanup, overall, elapsed_ms) as
// one JSON document, or a stage block as text. Pure functions of the
// daemon's report; runs in fipsctl.
#pragma once

#include <cstdint>
#include <string>

#include "control.capnp.h"
#include "ctl/show-render.h"

namespace fips::ctl {

// Stage budgets of the probe's polling (ms), the reference's floors:
// SESSION_FLOOR_MS covers two handshake resends, RTT_FLOOR_MS the remote's
// 1 s session MMP cold start plus two of its ticks.
constexpr uint64_t PROBE_SESSION_BUDGET_MS = 5'000;
constexpr uint64_t PROBE_RTT_BUDGET_MS = 3'000;

// The reference's overall verdict: "failed" when bloom, discovery or
// session failed, "ok" when the rtt stage is ok (every stage before it
// passed), else "partial" (a stage not reached, still running, or rtt failed).
std::string probeOverall(schema::ProbeReport::Reader report);

// At the end of polling, the stages still running fail as the reference's
// budgets do: session "handshake_timeout" (rtt then not reached), rtt
// "no_report" (no ReceiverReport came) or "no_echo" (reports, no RTT sample).
void settleProbe(schema::ProbeReport::Builder report);

// elapsedMs: how long the probe ran (measured by fipsctl).
Json probeJson(schema::ProbeReport::Reader report, uint64_t elapsedMs);
std::string probeText(schema::ProbeReport::Reader report, uint64_t elapsedMs);

}  // namespace fips::ctl
