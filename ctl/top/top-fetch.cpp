// SPDX-License-Identifier: MIT
// fipstop's poller (see top-fetch.h).
#include "ctl/top/top-fetch.h"

namespace fips::ctl::top {

std::unique_ptr<Answers> TopFetcher::query() {
  if (!client_) client_ = std::make_unique<ControlClient>(path_);
  auto& c = *client_;
  auto answers = std::make_unique<Answers>();
  auto& s = answers->snapshot;
  s.setStatus(c.wait(c.control().statusRequest().send()).getStatus());
  answers->hasStatus = true;
  s.setPeers(c.wait(c.control().peersRequest().send()).getPeers());
  answers->hasPeers = true;
  s.setLinks(c.wait(c.control().linksRequest().send()).getLinks());
  answers->hasLinks = true;
  s.setTransports(c.wait(c.control().transportsRequest().send()).getTransports());
  answers->hasTransports = true;
  s.setCounters(c.wait(c.control().metricsRequest().send()).getCounters());
  answers->hasCounters = true;
  s.setTree(c.wait(c.control().treeRequest().send()).getTree());
  answers->hasTree = true;
  s.setBloom(c.wait(c.control().bloomRequest().send()).getBloom());
  answers->hasBloom = true;
  s.setCache(c.wait(c.control().cacheRequest().send()).getCache());
  answers->hasCache = true;
  s.setSessions(c.wait(c.control().sessionsRequest().send()).getSessions());
  answers->hasSessions = true;
  s.setRouting(c.wait(c.control().routingRequest().send()).getRouting());
  answers->hasRouting = true;
  return answers;
}

void TopFetcher::queryGraphPeers(TopData& data) {
  auto& c = *client_;
  auto response = c.wait(c.control().statsPeersRequest().send());
  data.graphPeers.clear();
  for (auto p : response.getPeers()) data.graphPeers.push_back({p.getNpub(), p.getDisplayName()});
}

void TopFetcher::queryByPeer(TopData& data, const HistoryQuery& q) {
  auto& c = *client_;
  const char* metric = PEER_GRAPH_METRICS[q.metric % PEER_GRAPH_METRICS.size()];
  data.byPeer.clear();
  for (const auto& peer : data.graphPeers) {
    if (data.byPeer.size() == MAX_GRAPH_PEERS) break;
    auto request = c.control().statsHistoryRequest();
    request.setMetric(metric);
    request.setPeer(peer.npub);
    request.setWindow(q.window.window);
    request.setGranularity(q.window.granularity);
    auto response = c.wait(request.send());
    auto result = response.getResult();
    if (result.isError()) continue;  // forgotten since statsPeers answered
    auto s = result.getSeries();
    PeerSeries entry{peer.name, {s.getMetric(), s.getUnit(), s.getGranularitySeconds(), {}}};
    for (double v : s.getValues()) entry.series.values.push_back(v);
    data.byPeer.push_back(std::move(entry));
  }
}

void TopFetcher::queryAllHistory(TopData& data, const GraphPeer* peer,
                                 const HistoryWindow& window) {
  auto& c = *client_;
  auto request = c.control().statsAllHistoryRequest();
  request.setPeer(peer != nullptr ? peer->npub : "");
  request.setWindow(window.window);
  request.setGranularity(window.granularity);
  auto response = c.wait(request.send());
  auto result = response.getResult();
  data.historyPeer = peer != nullptr ? peer->name : "";
  if (result.isError()) {
    data.history.unavailable(result.getError());
  } else {
    data.history.set(result.getSeries(), window);
  }
}

void TopFetcher::queryHistory(TopData& data, const HistoryQuery& q) {
  if (q.mode == GraphsMode::Node) {
    queryAllHistory(data, nullptr, q.window);
    return;
  }
  queryGraphPeers(data);
  if (q.mode == GraphsMode::MetricByPeer) {
    queryByPeer(data, q);
  } else if (data.graphPeers.empty()) {
    data.historyPeer.clear();
    data.history.unavailable("no peer is tracked in the stats history yet");
  } else {
    queryAllHistory(data, &data.graphPeers[q.peer % data.graphPeers.size()], q.window);
  }
}

void TopFetcher::poll(TopData& data, uint64_t nowUnixMs, const HistoryQuery& history) {
  data.nowUnixMs = nowUnixMs;
  try {
    data.answers = query();
    data.disconnected.clear();
    data.everConnected = true;
    queryHistory(data, history);
  } catch (const ControlError& e) {
    // Drop the connection (its KJ event loop too) before the next attempt.
    client_.reset();
    data.disconnected = e.what();
  }
}

std::string TopFetcher::disconnect(const std::string& npub, const std::string& name) {
  try {
    if (!client_) client_ = std::make_unique<ControlClient>(path_);
    auto& c = *client_;
    auto request = c.control().disconnectRequest();
    request.setNpub(npub);
    auto response = c.wait(request.send());
    auto result = response.getResult();
    if (result.isError()) return "disconnect " + name + " failed: " + result.getError().cStr();
    return "disconnected " + name;
  } catch (const ControlError& e) {
    client_.reset();
    return "disconnect " + name + " failed: " + e.what();
  }
}

}  // namespace fips::ctl::top
