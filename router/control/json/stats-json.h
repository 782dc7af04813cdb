// SPDX-License-Identifier: MIT
// The reference's JSON documents for the stats history queries
// (show_stats_list, show_stats_peers, show_stats_history,
// show_stats_all_history; gaps as null), made from control.capnp answers.
// Pure functions; used by fipsctl --json and by the router's JSON-line
// compatibility protocol, so both print the same document.
#pragma once

#include <cstdint>

#include "control.capnp.h"
#include "router/control/json/json.h"

namespace fips::router::control::json {

// A sample as the reference prints it: a number, or null for a gap.
Json sampleJson(double value);

// Adds "window_cut_from_seconds" (windowSecs) and "retention_seconds" to
// `doc` when the window asked for is longer than the ring keeps (not in
// the reference: the series is served cut to the retention).
void markWindowCut(Json& doc, uint64_t windowSecs, uint64_t retentionSecs);

// {"fast_ring_seconds", "metrics": [{"name", "scope", "unit"}],
//  "peer_retention_seconds", "slow_ring_minutes"}
Json statsListJson(schema::StatsList::Reader list);

// {"count", "peers": [{"display_name", "first_seen_secs_ago", "is_active",
//  "last_contact_secs_ago", "node_addr", "npub"}]}
Json statsPeersJson(capnp::List<schema::StatsPeer>::Reader peers);

// {"granularity_seconds", "metric", "unit", "values": [number or null]};
// for a window cut to the ring's retention also "window_cut_from_seconds"
// (the window asked for) and "retention_seconds" (not in the reference).
Json seriesJson(schema::StatsSeries::Reader series);

// show_stats_all_history: {"granularity_seconds", "peer" (npub or null),
// "series": [seriesJson...], "window_seconds"}; `result` must hold series.
Json allHistoryJson(schema::StatsAllHistoryResult::Reader result);

}  // namespace fips::router::control::json
