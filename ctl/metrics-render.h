// SPDX-License-Identifier: MIT
// How fipsctl prints `stats metrics`: JSON (family -> counter -> value, a
// labelled counter as an object by label value), a table, or the Prometheus
// text exposition format (fips_<family>_<name>_total, one HELP and TYPE per
// metric). Pure functions of the daemon's counters; runs in fipsctl.
#pragma once

#include <string>

#include "ctl/show-render.h"

namespace fips::ctl {

Json metricsJson(capnp::List<schema::Counter>::Reader counters);
std::string metricsTable(capnp::List<schema::Counter>::Reader counters);
std::string metricsPrometheus(capnp::List<schema::Counter>::Reader counters);

}  // namespace fips::ctl
