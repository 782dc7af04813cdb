// SPDX-License-Identifier: MIT
// How fipsctl prints `probe` as text: a stage block. Pure function of the
// settled report (router/control/probe/probe-job.h); runs in fipsctl.
#pragma once

#include <cstdint>
#include <string>

#include "control.capnp.h"
#include "ctl/show-render.h"

namespace fips::ctl {

// The stage block: one line per stage (name, verdict, reason, then what
// it found and its detail, each in its own column); elapsedMs: how long the
// probe ran. The JSON document is router/control/json/probe-json.h's.
std::string probeText(schema::ProbeReport::Reader report, uint64_t elapsedMs);

}  // namespace fips::ctl
