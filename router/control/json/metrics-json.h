// SPDX-License-Identifier: MIT
// The reference's show_metrics document: family -> counter -> value, a
// labelled counter as an object by label value. A pure function of the
// snapshot's counters (control.capnp); used by fipsctl stats metrics --json
// and by the router's JSON-line compatibility protocol.
#pragma once

#include "control.capnp.h"
#include "router/control/json/json.h"

namespace fips::router::control::json {

Json metricsJson(capnp::List<schema::Counter>::Reader counters);

}  // namespace fips::router::control::json
