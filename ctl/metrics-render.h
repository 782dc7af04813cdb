// SPDX-License-Identifier: MIT
// How fipsctl prints `stats metrics`: the show_metrics document
// (router/control/json), a table, or the Prometheus
// text exposition format (fips_<family>_<name>_total, one HELP and TYPE per
// metric). Pure functions of the daemon's counters; runs in fipsctl.
#pragma once

#include <string>

#include "ctl/show-render.h"
#include "router/control/json/metrics-json.h"

namespace fips::ctl {

using router::control::json::metricsJson;

std::string metricsTable(capnp::List<schema::Counter>::Reader counters);
std::string metricsPrometheus(capnp::List<schema::Counter>::Reader counters);

}  // namespace fips::ctl
