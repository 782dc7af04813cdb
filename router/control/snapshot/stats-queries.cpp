// SPDX-License-Identifier: MIT
// Stats history queries (see stats-queries.h).
#include "router/control/snapshot/stats-queries.h"

#include <string>
#include <string_view>
#include <variant>

#include "lib/identity/nip19.h"
#include "router/dns/peer-name.h"

namespace fips::router::control {

namespace {

using stats::Granularity;

// A query's window and granularity, or the reference's error text.
struct Range : StatsRange {
  std::string error;
};

// An unset window or granularity (capnp has*) takes the default.
template <typename Params>
Range parseRange(Params params) {
  const auto text = [](bool has, capnp::Text::Reader value) {
    return has ? std::optional<std::string>(value.cStr()) : std::nullopt;
  };
  auto parsed = parseStatsRange(text(params.hasWindow(), params.getWindow()),
                                text(params.hasGranularity(), params.getGranularity()));
  Range range;
  if (auto* error = std::get_if<std::string>(&parsed)) {
    range.error = std::move(*error);
  } else {
    static_cast<StatsRange&>(range) = std::get<StatsRange>(parsed);
  }
  return range;
}

// The node address `peer` names (resolveStatsPeer), or the error text.
std::variant<identity::NodeAddr, std::string> peerAddr(const stats::StatsHistory& history,
                                                       const dns::HostMap& names,
                                                       capnp::Text::Reader peer) {
  auto found = resolveStatsPeer(history, names, std::string_view(peer.cStr(), peer.size()));
  if (auto* error = std::get_if<std::string>(&found)) return std::move(*error);
  return std::get<StatsPeer>(found).addr;
}

std::string notTracked(capnp::Text::Reader peer) {
  auto key = identity::decodeNpub(std::string_view(peer.cStr(), peer.size()));
  return "peer not tracked in stats history: " +
         (key.ok() ? identity::shortNpub(key.value()) : std::string(peer.cStr()));
}

void setSeries(const stats::Series& series, const Range& range, schema::StatsSeries::Builder out) {
  out.setMetric(std::string(series.metric));
  out.setUnit(std::string(series.unit));
  out.setGranularitySeconds(series.granularitySeconds);
  if (range.windowSecs > stats::retentionSeconds(range.granularity)) {
    out.setWindowCutFromSeconds(range.windowSecs);
  }
  auto values = out.initValues(static_cast<unsigned>(series.values.size()));
  for (unsigned i = 0; i < series.values.size(); ++i) values.set(i, series.values[i]);
}

}  // namespace

std::variant<StatsRange, std::string> parseStatsRange(
    const std::optional<std::string>& window, const std::optional<std::string>& granularity) {
  auto windowSecs = stats::parseWindow(window.value_or("10m"));
  if (auto* error = std::get_if<std::string>(&windowSecs)) return std::move(*error);
  auto parsedGranularity = stats::parseGranularity(granularity.value_or("1s"));
  if (auto* error = std::get_if<std::string>(&parsedGranularity)) return std::move(*error);
  return StatsRange{std::get<uint64_t>(windowSecs), std::get<Granularity>(parsedGranularity)};
}

std::variant<StatsPeer, std::string> resolveStatsPeer(const stats::StatsHistory& history,
                                                      const dns::HostMap& names,
                                                      std::string_view peer) {
  auto key = dns::resolvePeerName(peer, names);
  if (const auto* publicKey = std::get_if<crypto::PublicKey>(&key)) {
    return StatsPeer{identity::NodeAddr::fromPublicKey(*publicKey),
                     identity::encodeNpub(*publicKey)};
  }
  const auto& error = std::get<dns::PeerNameError>(key);
  for (const auto& tracked : history.trackedPeers()) {
    // The name stats peers shows now, or the one the peer was first
    // tracked under (its short npub when no name was known then).
    if (statsPeerName(tracked, names) == peer || tracked.displayName == peer) {
      return StatsPeer{tracked.addr, tracked.npub};
    }
  }
  if (error.badNpub) return "invalid peer npub: " + error.text;
  return error.text;
}

std::string statsPeerName(const stats::TrackedPeer& peer, const dns::HostMap& names) {
  if (const std::string* name = names.nameOf(peer.addr)) return *name;
  auto key = identity::decodeNpub(peer.npub);
  if (key.ok()) return identity::shortNpub(key.value());
  return peer.displayName;
}

void fillStatsList(schema::StatsList::Builder out) {
  auto metrics = out.initMetrics(stats::NODE_METRIC_COUNT + stats::PEER_METRIC_COUNT);
  unsigned n = 0;
  auto add = [&](const stats::MetricInfo& m, const char* scope) {
    metrics[n].setName(std::string(m.name));
    metrics[n].setUnit(std::string(m.unit));
    metrics[n].setScope(scope);
    ++n;
  };
  for (size_t i = 0; i < stats::NODE_METRIC_COUNT; ++i) {
    add(stats::info(static_cast<stats::NodeMetric>(i)), "node");
  }
  for (size_t i = 0; i < stats::PEER_METRIC_COUNT; ++i) {
    add(stats::info(static_cast<stats::PeerMetric>(i)), "peer");
  }
  out.setFastRingSeconds(stats::FAST_RING_CAPACITY);
  out.setSlowRingMinutes(stats::SLOW_RING_CAPACITY);
  out.setPeerRetentionSeconds(stats::PEER_EVICTION_SECS);
}

void fillStatsPeers(const stats::StatsHistory& history, const dns::HostMap& names,
                    schema::FipsControl::StatsPeersResults::Builder out) {
  const auto peers = history.trackedPeers();
  auto list = out.initPeers(static_cast<unsigned>(peers.size()));
  for (unsigned i = 0; i < peers.size(); ++i) {
    const auto& p = peers[i];
    auto e = list[i];
    e.setNpub(p.npub);
    e.setNodeAddr(kj::arrayPtr(p.addr.bytes().data(), p.addr.bytes().size()));
    e.setDisplayName(statsPeerName(p, names));
    e.setIsActive(p.active);
    e.setFirstSeenSecsAgo(p.firstSeenSecsAgo);
    e.setLastContactSecsAgo(p.lastContactSecsAgo);
  }
}

void answerStatsHistory(const stats::StatsHistory& history, const dns::HostMap& names,
                        schema::FipsControl::StatsHistoryParams::Reader params,
                        schema::StatsHistoryResult::Builder out) {
  const std::string metric = params.getMetric().cStr();
  if (metric.empty()) return out.setError("missing 'metric' parameter");
  const Range range = parseRange(params);
  if (!range.error.empty()) return out.setError(range.error);
  if (params.getPeer().size() == 0) {
    auto m = stats::parseNodeMetric(metric);
    if (!m && stats::parsePeerMetric(metric)) {
      return out.setError(metric +
                          " is a per-peer metric: give a peer (an npub, a hosts-file name or "
                          "a peer's alias)");
    }
    if (!m) return out.setError("unknown metric: " + metric);
    return setSeries(history.query(*m, range.windowSecs, range.granularity), range,
                     out.initSeries());
  }
  auto peer = peerAddr(history, names, params.getPeer());
  if (auto* error = std::get_if<std::string>(&peer)) return out.setError(*error);
  auto m = stats::parsePeerMetric(metric);
  if (!m) return out.setError("unknown peer metric: " + metric);
  auto series = history.peerQuery(std::get<identity::NodeAddr>(peer), *m, range.windowSecs,
                                  range.granularity);
  if (!series) return out.setError(notTracked(params.getPeer()));
  setSeries(*series, range, out.initSeries());
}

void answerStatsAllHistory(const stats::StatsHistory& history, const dns::HostMap& names,
                           schema::FipsControl::StatsAllHistoryParams::Reader params,
                           schema::StatsAllHistoryResult::Builder out) {
  const Range range = parseRange(params);
  if (!range.error.empty()) return out.setError(range.error);
  out.setGranularitySeconds(stats::seconds(range.granularity));
  out.setWindowSeconds(range.windowSecs);
  out.setPeer(params.getPeer());
  if (params.getPeer().size() == 0) {
    auto list = out.initSeries(stats::NODE_METRIC_COUNT);
    for (unsigned i = 0; i < stats::NODE_METRIC_COUNT; ++i) {
      setSeries(
          history.query(static_cast<stats::NodeMetric>(i), range.windowSecs, range.granularity),
          range, list[i]);
    }
    return;
  }
  auto peer = peerAddr(history, names, params.getPeer());
  if (auto* error = std::get_if<std::string>(&peer)) return out.setError(*error);
  if (!history.tracks(std::get<identity::NodeAddr>(peer))) {
    return out.setError(notTracked(params.getPeer()));
  }
  auto list = out.initSeries(stats::PEER_METRIC_COUNT);
  for (unsigned i = 0; i < stats::PEER_METRIC_COUNT; ++i) {
    auto series =
        history.peerQuery(std::get<identity::NodeAddr>(peer), static_cast<stats::PeerMetric>(i),
                          range.windowSecs, range.granularity);
    if (series) setSeries(*series, range, list[i]);
  }
}

}  // namespace fips::router::control
