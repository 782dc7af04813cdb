// SPDX-License-Identifier: MIT
// Host-name static peers (see peer-resolver.h).
#include "router/transports/peer-resolver.h"

#include <algorithm>
#include <arpa/inet.h>

#include "privsep/log.h"

#include "router/link/retry-schedule.h"

namespace fips::router {

namespace {

std::string hostText(const PeerHostName& name) {
  return fmt::format("{}:{}", name.target.host, name.target.port);
}

std::string ipText(const link::TransportAddr& addr) {
  char text[64] = "?";
  ::inet_ntop(addr.isIpv6() ? AF_INET6 : AF_INET, addr.ip.data(), text, sizeof(text));
  return text;
}

}  // namespace

PeerResolver::PeerResolver(uint64_t retryBaseMs, uint64_t retryCapMs, SendResolve send,
                           AddrsHandler onAddrs)
    : retryBaseMs_(retryBaseMs),
      retryCapMs_(retryCapMs),
      send_(std::move(send)),
      onAddrs_(std::move(onAddrs)) {}

void PeerResolver::add(const crypto::PublicKey& key, const std::string& name,
                       std::vector<link::TransportAddr> numeric, std::vector<PeerHostName> hosts) {
  Peer peer{key, name, std::move(numeric), {}, false};
  for (auto& host : hosts) peer.hosts.push_back(Host{std::move(host), {}, std::nullopt, 0, 0});
  auto [it, added] = peers_.emplace(identity::NodeAddr::fromPublicKey(key), std::move(peer));
  if (added && !it->second.numeric.empty()) publish(it->second);
}

bool PeerResolver::addEphemeral(const crypto::PublicKey& key, const std::string& name,
                                PeerHostName host) {
  Peer peer{key, name, {}, {}, true};
  peer.hosts.push_back(Host{std::move(host), {}, std::nullopt, 0, 0});
  return peers_.emplace(identity::NodeAddr::fromPublicKey(key), std::move(peer)).second;
}

bool PeerResolver::awaitingFirstAnswer(const identity::NodeAddr& peer) const {
  const auto it = peers_.find(peer);
  if (it == peers_.end() || !it->second.numeric.empty()) return false;
  return std::all_of(it->second.hosts.begin(), it->second.hosts.end(),
                     [](const Host& host) { return host.answer.empty(); });
}

bool PeerResolver::remove(const identity::NodeAddr& peer) {
  return peers_.erase(peer) > 0;
}

void PeerResolver::tick(uint64_t nowMs,
                        const std::function<bool(const identity::NodeAddr&)>& isUp) {
  for (auto& [addr, peer] : peers_) {
    for (auto& host : peer.hosts) {
      if (host.inFlight || nowMs < host.dueMs) continue;
      bool refresh = false;
      if (!host.answer.empty()) {
        // An answer in use is refreshed only while the peer is down: a live
        // link follows its peer's authenticated frames, not DNS.
        if (isUp(addr)) {
          host.downRefreshes = 0;
          continue;
        }
        // Down: each redial (same backoff) gets an answer no older than it.
        const uint64_t waitMs = std::min(
            link::retryBackoffMs(host.downRefreshes, retryBaseMs_, retryCapMs_), RESOLVE_TTL_MS);
        if (nowMs < host.answeredMs + waitMs) continue;
        refresh = true;
      }
      const uint32_t id = nextId_++;
      if (!send_(host.name.transportId, id, host.name.target.host, host.name.target.port)) return;
      host.inFlight = id;
      if (refresh) ++host.downRefreshes;
    }
  }
}

void PeerResolver::onResolved(uint32_t transportId, uint32_t id,
                              std::vector<link::TransportAddr> addrs, const std::string& error,
                              uint64_t nowMs) {
  for (auto it = peers_.begin(); it != peers_.end(); ++it) {
    Peer& peer = it->second;
    for (auto& host : peer.hosts) {
      if (host.inFlight != id || host.name.transportId != transportId) continue;
      host.inFlight.reset();
      if (!error.empty()) {
        if (failed(peer, host, error, nowMs)) peers_.erase(it);
        return;
      }
      std::vector<link::TransportAddr> usable;
      for (const auto& a : addrs) {
        if (!a.isFipsMeshAddress()) {
          usable.push_back(a);
        } else {
          spdlog::warn("peer {}: {} resolves to {}, in fd00::/8 (the mesh itself): refused",
                       peer.name, hostText(host.name), ipText(a));
        }
      }
      if (usable.empty()) {
        if (failed(peer, host, "no usable address", nowMs)) peers_.erase(it);
        return;
      }
      if (peer.ephemeral) {
        spdlog::info("connect {}: {} resolves to {}", peer.name, hostText(host.name),
                     ipText(usable.front()));
        onAddrs_(peer.key, std::move(usable), true);
        peers_.erase(it);
        return;
      }
      if (usable != host.answer) {
        spdlog::info("peer {}: {} resolves to {}{}", peer.name, hostText(host.name),
                     ipText(usable.front()),
                     usable.size() > 1 ? fmt::format(" (+{} more)", usable.size() - 1) : "");
      }
      host.failures = 0;
      host.dueMs = nowMs;
      host.answeredMs = nowMs;
      if (usable != host.answer) {
        host.answer = std::move(usable);
        publish(peer);
      }
      return;
    }
  }
}

bool PeerResolver::failed(Peer& peer, Host& host, const std::string& why, uint64_t nowMs) {
  if (peer.ephemeral) {
    spdlog::warn("connect {}: cannot resolve {}: {}; not dialed", peer.name, hostText(host.name),
                 why);
    return true;
  }
  const uint64_t waitMs = link::retryBackoffMs(host.failures, retryBaseMs_, retryCapMs_);
  ++host.failures;
  host.dueMs = nowMs + waitMs;
  spdlog::warn("peer {}: cannot resolve {}: {} (attempt {}, next in {} s{})", peer.name,
               hostText(host.name), why, host.failures, (waitMs + 999) / 1000,
               host.answer.empty() ? "" : "; the last answer stays in use");
  return false;
}

// Hands the engine every usable address: numeric ones first, then each
// name's answer in resolver order.
void PeerResolver::publish(Peer& peer) {
  std::vector<link::TransportAddr> all = peer.numeric;
  for (const auto& host : peer.hosts) {
    for (const auto& a : host.answer) {
      if (std::find(all.begin(), all.end(), a) == all.end()) all.push_back(a);
    }
  }
  if (!all.empty()) onAddrs_(peer.key, std::move(all), false);
}

}  // namespace fips::router
