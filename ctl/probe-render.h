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

// "ok" when every stage is ok or skipped, "failed" when one failed, else
// "partial" (a stage still running, not reached, or not built here).
std::string probeOverall(schema::ProbeReport::Reader report);

// elapsedMs: how long the probe ran (measured by fipsctl).
Json probeJson(schema::ProbeReport::Reader report, uint64_t elapsedMs);
std::string probeText(schema::ProbeReport::Reader report, uint64_t elapsedMs);

}  // namespace fips::ctl
