// SPDX-License-Identifier: MIT
// How fipsctl prints `stats list|peers|history`: JSON with the reference's
// keys (show_stats_list, show_stats_peers, show_stats_history; gaps as
// null), human tables, and for `history --plot` the reference's Unicode
// block sparkline. Pure functions of the daemon's answer; runs in fipsctl.
#pragma once

#include <span>
#include <string>

#include "ctl/show-render.h"

namespace fips::ctl {

// {"fast_ring_seconds", "metrics": [{"name", "scope", "unit"}],
//  "peer_retention_seconds", "slow_ring_minutes"}
Json statsListJson(schema::StatsList::Reader list);
std::string statsListTable(schema::StatsList::Reader list);

// {"count", "peers": [{"display_name", "first_seen_secs_ago", "is_active",
//  "last_contact_secs_ago", "node_addr", "npub"}]}
Json statsPeersJson(capnp::List<schema::StatsPeer>::Reader peers);
std::string statsPeersTable(capnp::List<schema::StatsPeer>::Reader peers);

// {"granularity_seconds", "metric", "unit", "values": [number or null]}
Json seriesJson(schema::StatsSeries::Reader series);
// One row per sample: its age ("-30s", newest "0s") and value ("-" for a gap).
std::string seriesTable(schema::StatsSeries::Reader series);
// The reference's plot: a header line ("mesh_size (nodes) — 600 samples @
// 1s = 600s window (3 gaps)"), "  min=… max=… last=…", then "  " and the
// sparkline; "<metric>: no data yet" for an empty series.
std::string seriesPlot(schema::StatsSeries::Reader series);

// One of ▁▂▃▄▅▆▇█ per value, scaled between min and max (rounded to the
// nearest of the eight levels); a space for NaN; ▄ for every value when
// max - min is not positive.
std::string sparkline(std::span<const double> values, double min, double max);

}  // namespace fips::ctl
