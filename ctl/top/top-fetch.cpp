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

void TopFetcher::queryHistory(NodeHistory& history, const HistoryWindow& window) {
  auto& c = *client_;
  auto request = c.control().statsAllHistoryRequest();
  request.setPeer("");
  request.setWindow(window.window);
  request.setGranularity(window.granularity);
  auto response = c.wait(request.send());
  auto result = response.getResult();
  if (result.isError()) {
    history.unavailable(result.getError());
  } else {
    history.set(result.getSeries(), window);
  }
}

void TopFetcher::poll(TopData& data, uint64_t nowUnixMs, const HistoryWindow& window) {
  data.nowUnixMs = nowUnixMs;
  try {
    data.answers = query();
    data.disconnected.clear();
    data.everConnected = true;
    queryHistory(data.history, window);
  } catch (const ControlError& e) {
    // Drop the connection (its KJ event loop too) before the next attempt.
    client_.reset();
    data.disconnected = e.what();
  }
}

}  // namespace fips::ctl::top
