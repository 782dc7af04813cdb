// SPDX-License-Identifier: MIT
// How fipsctl prints `stats list|peers|history`: JSON with the reference's
// keys (show_stats_list, show_stats_peers, show_stats_history; gaps as
// null), human tables, and for `history --plot` the reference's Unicode
// block sparkline. Pure functions of the daemon's answer; runs in fipsctl.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "ctl/show-render.h"
#include "router/control/json/stats-json.h"

namespace fips::ctl {

using router::control::json::seriesJson;
using router::control::json::statsListJson;
using router::control::json::statsPeersJson;

std::string statsListTable(schema::StatsList::Reader list);

std::string statsPeersTable(capnp::List<schema::StatsPeer>::Reader peers);

// One row per sample: its age ("-30s", newest "0s") and value ("-" for a gap).
// A window the daemon cut to its ring's retention is said in a "note:" line
// under the header (and at the end of the plot). An empty series (a window
// shorter than one step, e.g. --window 0s: the reference answers no values,
// not an error) is the header and a "note: no samples" line.
std::string seriesTable(schema::StatsSeries::Reader series);
// Columns the plot's sparkline row is indented by.
constexpr size_t PLOT_INDENT = 2;

// The reference's plot: a header line ("mesh_size (nodes) — 600 samples @
// 1s = 600s window (3 gaps)"), "  min=… max=… last=…", then "  " and the
// sparkline; "<metric>: no data yet" for an empty series. `columns`: the
// terminal's width (0: unlimited, as the reference); a series wider than
// columns - PLOT_INDENT is drawn downsampled to fit, and a last line says so.
std::string seriesPlot(schema::StatsSeries::Reader series, size_t columns = 0);

// `values` in `width` columns, each the mean of its share of consecutive
// samples (NaN gaps left out; NaN when a column has only gaps); `values`
// unchanged when it fits (or width is 0).
std::vector<double> downsample(std::span<const double> values, size_t width);

// One of ▁▂▃▄▅▆▇█ per value, scaled between min and max (rounded to the
// nearest of the eight levels); a space for NaN; ▄ for every value when
// max - min is not positive.
std::string sparkline(std::span<const double> values, double min, double max);

}  // namespace fips::ctl
