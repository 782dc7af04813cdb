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

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "control.capnp.h"
#include "router/dns/host-map.h"
#include "router/stats/history-metric.h"
#include "router/stats/stats-history.h"

namespace fips::router::control {

// A stats query's window and granularity.
struct StatsRange {
  uint64_t windowSecs = 0;
  stats::Granularity granularity = stats::Granularity::FAST;
};

// The range `window` and `granularity` give ("<N>s|m|h", "1s|1m"); an
// absent one takes the reference's default (10m, 1s), one given as "" is
// refused as the reference refuses it. Otherwise the reference's error text.
std::variant<StatsRange, std::string> parseStatsRange(
    const std::optional<std::string>& window, const std::optional<std::string>& granularity);

// A peer of a stats query, as resolved: its node address and npub.
struct StatsPeer {
  identity::NodeAddr addr;
  std::string npub;
};

// The peer `peer` names: a name of `names` (the router's host map) or an
// npub (dns::resolvePeerName), else a tracked peer whose display name it
// is; otherwise the error text: connect's "unknown peer ..." for what is
// none of these, the reference's "invalid peer npub: <e>" for a bad npub.
std::variant<StatsPeer, std::string> resolveStatsPeer(const stats::StatsHistory& history,
                                                      const dns::HostMap& names,
                                                      std::string_view peer);

// The name a tracked peer is shown by now: its name in `names` (the
// router's host map, which follows the hosts file), else its short npub.
std::string statsPeerName(const stats::TrackedPeer& peer, const dns::HostMap& names);

void fillStatsList(schema::StatsList::Builder out);

void fillStatsPeers(const stats::StatsHistory& history, const dns::HostMap& names,
                    schema::FipsControl::StatsPeersResults::Builder out);

// The peer param of these two is resolved by resolveStatsPeer with `names`.
void answerStatsHistory(const stats::StatsHistory& history, const dns::HostMap& names,
                        schema::FipsControl::StatsHistoryParams::Reader params,
                        schema::StatsHistoryResult::Builder out);

void answerStatsAllHistory(const stats::StatsHistory& history, const dns::HostMap& names,
                           schema::FipsControl::StatsAllHistoryParams::Reader params,
                           schema::StatsAllHistoryResult::Builder out);

}  // namespace fips::router::control
