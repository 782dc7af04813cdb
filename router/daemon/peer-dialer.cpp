// SPDX-License-Identifier: MIT
// PeerDialer (see peer-dialer.h).
#include "router/daemon/peer-dialer.h"

#include <algorithm>
#include <variant>

#include "privsep/log.h"

#include "lib/identity/nip19.h"

namespace fips::router {

PeerDialer::PeerDialer(TransportSet& transports, const link::Clock& clock)
    : transports_(transports), clock_(clock) {}

void PeerDialer::start(schema::RouterConfig::Reader slice, mesh::MeshNode& mesh,
                       std::vector<DialablePeer> peers, std::vector<std::string> warnings) {
  mesh_ = &mesh;
  const auto link = slice.getLink();
  resolver_ = std::make_unique<PeerResolver>(
      link.getRetryBaseIntervalSecs() * 1000, link.getRetryMaxBackoffSecs() * 1000,
      [this](uint32_t transport, uint32_t request, const std::string& host, uint16_t port) {
        return transports_.resolve(transport, request, host, port);
      },
      [this](const crypto::PublicKey& peer, std::vector<link::TransportAddr> addrs,
             bool ephemeral) {
        // A connect-time name (fipsctl connect) is dialed once at its first address.
        const bool taken = ephemeral ? mesh_->addEphemeralPeer(peer, addrs.front())
                                     : mesh_->setStaticPeerAddrs(peer, std::move(addrs));
        if (!taken) spdlog::warn("peer {}: addresses refused", identity::encodeNpub(peer));
      });
  transports_.setResolvedHandler(
      [this](uint32_t transport, uint32_t request, auto addrs, const std::string& error) {
        resolver_->onResolved(transport, request, std::move(addrs), error, clock_.nowMs());
        transports_.flush();
      });
  for (auto& peer : peers) {
    if (!peer.hosts.empty()) {
      resolver_->add(peer.key, peer.name, std::move(peer.addrs), std::move(peer.hosts));
    } else if (!mesh_->addStaticPeer(peer.key, peer.addrs)) {
      warnings.push_back("peer " + peer.name + ": refused");
    }
  }
  for (auto peer : slice.getPeers()) {
    if (peer.getAutoConnect()) continue;
    auto decoded = identity::decodeNpub(std::string(peer.getNpub()));
    if (decoded.ok()) onDemand_.add(*mesh_, decoded.value());
  }
  for (const auto& w : warnings) spdlog::warn("{}", w);
  resolveDue(clock_.nowMs());
}

void PeerDialer::onTick(uint64_t nowMs) {
  onDemand_.tick(*mesh_, nowMs);
  logRekeys();
  resolveDue(nowMs);
}

// Sends the host-name lookups of static peers that are due.
void PeerDialer::resolveDue(uint64_t nowMs) {
  const auto up = mesh_->snapshot().peers;
  resolver_->tick(nowMs, [&up](const identity::NodeAddr& peer) {
    return std::any_of(up.begin(), up.end(), [&](const auto& p) { return p.addr == peer; });
  });
}

// Rekeys are hitless and the engine does not report them; the count per
// peer is compared once a tick so a completed cutover shows in the log.
void PeerDialer::logRekeys() {
  std::map<identity::NodeAddr, uint64_t> seen;
  for (const auto& peer : mesh_->snapshot().peers) {
    const auto it = rekeysSeen_.find(peer.addr);
    if (it != rekeysSeen_.end() && peer.rekeys > it->second) {
      spdlog::info("link rekeyed: {} ({} rekeys, index {})", identity::encodeNpub(peer.key),
                   peer.rekeys, peer.ourIndex);
    }
    seen[peer.addr] = peer.rekeys;
  }
  rekeysSeen_ = std::move(seen);
}

}  // namespace fips::router
