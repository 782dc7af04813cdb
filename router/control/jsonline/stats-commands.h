// SPDX-License-Identifier: MIT
// The reference's stats history commands on the JSON-line socket
// (docs/reference/control-socket.md): show_stats_list, show_stats_peers,
// show_stats_history {metric, peer, window, granularity},
// show_stats_all_history {peer, window, granularity} and
// show_stats_history_all_peers {metric, window, granularity}, with the
// reference's defaults (window 10m, granularity 1s) and error texts. The
// first four run the same code as the Cap'n Proto queries (stats-queries)
// and answer with the documents fipsctl --json prints (json/stats-json).
// Departures: a param of another type than string (null is absent) is an
// error ("invalid 'window' parameter: expected ...") where the reference
// ignores it or says it is missing; a window cut to the ring's retention
// adds "window_cut_from_seconds" and "retention_seconds"; `peer` takes a
// name of the router's host map (hosts file, configured alias) as well as
// an npub (the reference: an npub only), and show_stats_history's answer
// then names the resolved peer in "npub" (show_stats_all_history's in its
// "peer").
// Runs on the control thread of fips-router; params are untrusted.
#pragma once

#include <optional>

#include "router/control/json/line.h"
#include "router/dns/host-map.h"
#include "router/stats/stats-history.h"

namespace fips::router::control {

// The response envelope when `request` is one of the stats commands above,
// nullopt for any other command. `names`: the router's host map.
std::optional<Json> statsResponse(const JsonRequest& request, const stats::StatsHistory& history,
                                  const dns::HostMap& names);

}  // namespace fips::router::control
