// SPDX-License-Identifier: MIT
// The stats history queries of control.capnp (statsList, statsPeers,
// statsHistory, statsAllHistory; the reference's show_stats_* commands):
// parameters checked with the reference's error texts (but a bare number
// window says its unit is missing, and a per-peer metric without a peer
// says a peer is needed), answers copied from the StatsHistory rings; a
// window longer than the ring keeps is cut to it, and the series says so
// (windowCutFromSeconds). Runs on the control thread of fips-router;
// parameters come from local clients (untrusted text, never thrown on).
#pragma once

#include "control.capnp.h"
#include "router/stats/stats-history.h"

namespace fips::router::control {

void fillStatsList(schema::StatsList::Builder out);

void fillStatsPeers(const stats::StatsHistory& history,
                    schema::FipsControl::StatsPeersResults::Builder out);

void answerStatsHistory(const stats::StatsHistory& history,
                        schema::FipsControl::StatsHistoryParams::Reader params,
                        schema::StatsHistoryResult::Builder out);

void answerStatsAllHistory(const stats::StatsHistory& history,
                           schema::FipsControl::StatsAllHistoryParams::Reader params,
                           schema::StatsAllHistoryResult::Builder out);

}  // namespace fips::router::control
