// SPDX-License-Identifier: MIT
// LinkManager timers (spec 02 §5 step 3, §8, §10; spec 01 §8.1): msg1
// resends with backoff and handshake timeouts, per-link rekey/cutover/drain,
// dead-link reaping, heartbeats, and redials of static peers. Runs in
// fips-router on the injected clock; no input from the network.
#include "router/fmp/disconnect.h"
#include "router/link/link-manager.h"

namespace fips::router::link {

void LinkManager::tick() {
  if (shutdown_) return;
  const uint64_t now = clock_.nowMs();
  tickOutbound(now);
  expireCandidates(now);
  tickPeers(now);
  tickRetries(now);
}

void LinkManager::tickOutbound(uint64_t nowMs) {
  for (auto it = outbound_.begin(); it != outbound_.end();) {
    OutboundHandshake& hs = it->second;
    if (nowMs - hs.startMs >= config_.handshakeTimeoutSecs * 1000) {
      // Timed out: free it; a static peer that is not up gets a backoff redial.
      const identity::NodeAddr peer = hs.peer;
      indices_.release(hs.to.transportId, hs.ourIndex);
      it = outbound_.erase(it);
      const auto config = statics_.find(peer);
      if (config != statics_.end() && !peers_.contains(peer)) {
        if (config->second.redial) {
          config->second.retry.onHandshakeTimeout(nowMs);
        } else {
          statics_.erase(config);
        }
      }
      continue;
    }
    if (hs.resends < config_.handshakeMaxResends && nowMs >= hs.nextResendMs) {
      hs.nextResendMs = nextResendAtMs(nowMs, config_.handshakeResendIntervalMs,
                                       config_.handshakeResendBackoff, hs.resends);
      ++hs.resends;
      io_.sendDatagram(hs.to, hs.msg1);
    }
    ++it;
  }
}

void LinkManager::tickPeers(uint64_t nowMs) {
  const uint64_t deadMs = config_.linkDeadTimeoutSecs * 1000;
  const uint64_t heartbeatMs = config_.heartbeatIntervalSecs * 1000;
  std::vector<identity::NodeAddr> dead;
  for (auto& [addr, link] : peers_) {
    link->tick(nowMs, rng_, io_);
    if (link->dead(nowMs, deadMs)) {
      dead.push_back(addr);  // removed silently: no Disconnect (spec 02 §8)
      continue;
    }
    link->sendReports(nowMs, io_);
    if (link->heartbeatDue(nowMs, heartbeatMs)) {
      const auto message = fmp::encodeHeartbeat();
      const auto packet = link->seal(message, nowMs);
      if (packet) io_.sendDatagram(link->current(), *packet);
      link->markHeartbeatSent(nowMs);
    }
  }
  for (const identity::NodeAddr& addr : dead) takeDown(addr, LinkDownReason::DEAD);
}

void LinkManager::tickRetries(uint64_t nowMs) {
  for (auto& [addr, config] : statics_) {
    if (config.retry.due(nowMs) && !peers_.contains(addr) && !outbound_.contains(addr)) {
      dial(addr, config, nowMs);
    }
  }
}

}  // namespace fips::router::link
