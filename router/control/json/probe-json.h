// SPDX-License-Identifier: MIT
// The reference's probe report (docs/reference/control-socket.md "probe
// report"; src/control/probe.rs): target, bloom (with fanout), discovery,
// path, session, rtt, cleanup, overall, elapsed_ms and tick_ms, made from a
// control.capnp
// ProbeReport, and the overall verdict. Pure functions; used by fipsctl
// probe --json and by the JSON-line socket's probe_poll, so both print the
// same document.
#pragma once

#include <cstdint>
#include <string>

#include "control.capnp.h"
#include "router/control/json/json.h"

namespace fips::router::control::json {

// The reference's overall verdict: "failed" when bloom, discovery or
// session failed, "ok" when the rtt stage is ok (every stage before it
// passed), else "partial" (a stage not reached, still running, or rtt failed).
std::string probeOverall(schema::ProbeReport::Reader report);

// The report document; elapsedMs: how long the probe ran. "overall" is
// probeOverall (a caller with a running or cancelled job overwrites it).
// Stage elapsed_ms, the rtt counters and cleanup are as ProbeJob's report
// holds them (control/probe-job.h): cleanup "torn_down" reads
// session_created_and_torn_down, "preexisting", "replaced" or
// "adopted_by_traffic" the left_intact_reason.
Json probeJson(schema::ProbeReport::Reader report, uint64_t elapsedMs);

}  // namespace fips::router::control::json
