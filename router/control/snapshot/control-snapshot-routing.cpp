// SPDX-License-Identifier: MIT
// The NodeSnapshot sections of fipsctl show sessions|connections|routing|
// identity-cache and acl show, from the plain values collectRouting copies
// out of MeshNode (see control-snapshot.h). Runs on the data-plane thread of
// fips-router.
#include <algorithm>

#include "lib/identity/fips-address.h"
#include "lib/identity/nip19.h"
#include "router/control/snapshot/control-snapshot.h"
#include "router/link/transport-addr.h"

namespace fips::router {

namespace {

kj::ArrayPtr<const uint8_t> bytesOf(const identity::NodeAddr& addr) {
  return kj::arrayPtr(addr.bytes().data(), addr.bytes().size());
}

unsigned bounded(size_t n) {
  return static_cast<unsigned>(std::min(n, SNAPSHOT_LIST_ENTRIES));
}

const char* stateName(fsp::SessionState state) {
  switch (state) {
    case fsp::SessionState::INITIATING:
      return "initiating";
    case fsp::SessionState::AWAITING_MSG3:
      return "awaiting_msg3";
    case fsp::SessionState::ESTABLISHED:
      return "established";
  }
  return "unknown";
}

void fillSessions(const SnapshotInput& in, schema::SessionsStatus::Builder out) {
  const auto& list = in.routing.sessions;
  out.setCount(static_cast<uint32_t>(list.size()));
  auto sessions = out.initSessions(bounded(list.size()));
  for (unsigned i = 0; i < sessions.size(); ++i) {
    const auto& [addr, info] = list[i];
    auto s = sessions[i];
    s.setRemoteAddr(bytesOf(addr));
    if (auto npub = npubOf(in, addr)) s.setNpub(*npub);
    s.setDisplayName(nameOf(in, addr));
    s.setState(stateName(info.state));
    s.setIsInitiator(info.initiator);
    s.setLastActivityMs(toUnixMs(in, info.lastActivityMs));
    s.setCreatedAtMs(toUnixMs(in, info.createdMs));
    s.setPacketsSent(info.packetsSent);
    s.setPacketsRecv(info.packetsRecv);
    s.setBytesSent(info.bytesSent);
    s.setBytesRecv(info.bytesRecv);
    s.setResendCount(info.resends);
    s.setCoordsWarmupRemaining(info.coordsWarmupRemaining);
    s.setPathMtu(info.pathMtu == fsp::PathMtuState::UNKNOWN ? 0 : info.pathMtu);
    s.setRekeys(info.rekeys);
    s.setRekeyInProgress(info.rekeyInProgress);
    if (info.state != fsp::SessionState::ESTABLISHED) continue;
    s.setSessionStartMs(toUnixMs(in, info.sessionStartMs));
    s.setCurrentKBit(info.kBit);
    s.setIsDraining(info.draining);
    if (info.mmp) fillMmp(*info.mmp, s.initMmp());
  }
}

void fillConnections(const SnapshotInput& in, schema::ConnectionsStatus::Builder out) {
  const auto& list = in.routing.handshakes;
  out.setCount(static_cast<uint32_t>(list.size()));
  auto connections = out.initConnections(bounded(list.size()));
  for (unsigned i = 0; i < connections.size(); ++i) {
    const link::HandshakeInfo& h = list[i];
    auto c = connections[i];
    c.setLinkId(h.ourIndex);
    c.setDirection("outbound");
    c.setHandshakeState("sent_msg1");
    c.setStartedAtMs(toUnixMs(in, h.startMs));
    c.setIdleMs(in.nowMonoMs > h.startMs ? in.nowMonoMs - h.startMs : 0);
    c.setResendCount(h.resends);
    if (h.key) c.setExpectedPeer(identity::encodeNpub(*h.key));
    c.setRemoteAddr(link::toText(h.to));
  }
}

void fillRouting(const SnapshotInput& in, schema::RoutingStatus::Builder out) {
  const RoutingInput& r = in.routing;
  out.setCoordCacheEntries(static_cast<uint32_t>(r.coordCacheEntries));
  out.setIdentityCacheEntries(static_cast<uint32_t>(r.identityCacheEntries));
  out.setPendingTunDestinations(static_cast<uint32_t>(r.pendingTunDestinations));
  out.setPendingTunPackets(static_cast<uint32_t>(r.pendingTunPackets));
  out.setRecentRequests(static_cast<uint32_t>(r.recentRequests));
  auto lookups = out.initPendingLookups(bounded(r.pendingLookups.size()));
  for (unsigned i = 0; i < lookups.size(); ++i) {
    const lookup::PendingLookup& p = r.pendingLookups[i];
    auto l = lookups[i];
    l.setTarget(bytesOf(p.target));
    l.setDisplayName(nameOf(in, p.target));
    l.setInitiatedMs(toUnixMs(in, p.initiatedMs));
    l.setLastSentMs(toUnixMs(in, p.lastSentMs));
    l.setAttempt(static_cast<uint32_t>(p.attempt));
    l.setAgeMs(in.nowMonoMs > p.initiatedMs ? in.nowMonoMs - p.initiatedMs : 0);
  }
  auto retries = out.initRetries(bounded(r.retries.size()));
  for (unsigned i = 0; i < retries.size(); ++i) {
    const link::RetryInfo& p = r.retries[i];
    auto e = retries[i];
    e.setNodeAddr(bytesOf(p.peer));
    e.setDisplayName(nameOf(in, p.peer));
    e.setRetryCount(p.retryCount);
    if (p.dueMs) {
      // A due time still ahead is after now; toUnixMs maps past instants only.
      const uint64_t ahead = *p.dueMs > in.nowMonoMs ? *p.dueMs - in.nowMonoMs : 0;
      e.setRetryAfterMs(toUnixMs(in, *p.dueMs) + ahead);
    }
    e.setAutoReconnect(p.autoReconnect);
  }
  const auto forwarding = forwardingStats(r.forwarding);
  const auto discovery = discoveryStats(r.lookups);
  auto counters = out.initCounters(static_cast<unsigned>(forwarding.size() + discovery.size()));
  unsigned i = 0;
  for (const auto& [name, value] : forwarding) {
    counters[i].setFamily("forwarding");
    counters[i].setName(name);
    counters[i++].setValue(value);
  }
  for (const auto& [name, value] : discovery) {
    counters[i].setFamily("discovery");
    counters[i].setName(name);
    counters[i++].setValue(value);
  }
}

void fillIdentityCache(const SnapshotInput& in, schema::IdentityCacheStatus::Builder out) {
  const RoutingInput& r = in.routing;
  out.setCount(static_cast<uint32_t>(r.identityCacheEntries));
  out.setMaxEntries(static_cast<uint32_t>(r.identityCacheCapacity));
  auto entries = out.initEntries(bounded(r.identities.size()));
  for (unsigned i = 0; i < entries.size(); ++i) {
    const routing::CachedIdentity& id = r.identities[i];
    const auto ipv6 = identity::FipsAddress::fromNodeAddr(id.addr).bytes();
    auto e = entries[i];
    e.setNodeAddr(bytesOf(id.addr));
    e.setNpub(identity::encodeNpub(id.key));
    e.setDisplayName(nameOf(in, id.addr));
    e.setIpv6(kj::arrayPtr(ipv6.data(), ipv6.size()));
  }
}

// The reference's state for no peers.allow / peers.deny: open, nothing
// enforced. This build loads no ACL, so that is always what it has.
void fillAcl(schema::AclStatus::Builder out) {
  out.setAllowFile("/etc/fips/peers.allow");
  out.setDenyFile("/etc/fips/peers.deny");
  out.setEnforcementActive(false);
  out.setEffectiveMode("default_open");
  out.setDefaultDecision("allow");
  out.setImplemented(false);
}

}  // namespace

std::vector<std::pair<std::string, uint64_t>> forwardingStats(
    const routing::ForwardingCounters& c) {
  using routing::ForwardDrop;
  const auto drop = [&](ForwardDrop d) { return static_cast<size_t>(d); };
  std::vector<std::pair<std::string, uint64_t>> rows = {
      {"received_packets", c.receivedPackets},
      {"received_bytes", c.receivedBytes},
      {"delivered_packets", c.deliveredPackets},
      {"delivered_bytes", c.deliveredBytes},
      {"forwarded_packets", c.forwardedPackets},
      {"forwarded_bytes", c.forwardedBytes},
      {"originated_packets", c.originatedPackets},
      {"originated_bytes", c.originatedBytes},
      {"decode_error_packets", c.dropPackets[drop(ForwardDrop::DECODE_ERROR)]},
      {"decode_error_bytes", c.dropBytes[drop(ForwardDrop::DECODE_ERROR)]},
      {"ttl_exhausted_packets", c.dropPackets[drop(ForwardDrop::TTL_EXHAUSTED)]},
      {"ttl_exhausted_bytes", c.dropBytes[drop(ForwardDrop::TTL_EXHAUSTED)]},
  };
  for (const ForwardDrop d :
       {ForwardDrop::NO_ROUTE, ForwardDrop::MTU_EXCEEDED, ForwardDrop::SEND_ERROR}) {
    const std::string name = std::string("drop_") + routing::toString(d);
    rows.emplace_back(name + "_packets", c.dropPackets[drop(d)]);
    rows.emplace_back(name + "_bytes", c.dropBytes[drop(d)]);
  }
  for (size_t k = 0; k < routing::ROUTE_CLASS_COUNT; ++k) {
    rows.emplace_back(
        std::string("route_") + routing::toString(static_cast<routing::RouteClass>(k)),
        c.routeClass[k]);
  }
  return rows;
}

RoutingInput collectRouting(const mesh::MeshNode& mesh) {
  RoutingInput r;
  r.present = true;
  r.sessions = mesh.sessions().list();
  r.handshakes = mesh.handshakes();
  r.retries = mesh.retries();
  r.pendingLookups = mesh.lookups().pendingLookups();
  r.forwarding = mesh.forwarding();
  r.lookups = mesh.lookups().counters();
  r.coordCacheEntries = mesh.coordCache().size();
  r.identityCacheEntries = mesh.identities().size();
  r.identityCacheCapacity = mesh.identities().capacity();
  mesh.identities().forEach([&](const routing::CachedIdentity& e) {
    if (r.identities.size() < SNAPSHOT_LIST_ENTRIES) r.identities.push_back(e);
  });
  r.pendingTunDestinations = mesh.sessions().pending().destinations();
  r.pendingTunPackets = mesh.sessions().pending().total();
  r.recentRequests = mesh.lookups().recentCount();
  return r;
}

void fillRoutingSections(const SnapshotInput& in, schema::NodeSnapshot::Builder out) {
  fillAcl(out.initAcl());
  if (!in.routing.present) return;
  fillSessions(in, out.initSessions());
  fillConnections(in, out.initConnections());
  fillRouting(in, out.initRouting());
  fillIdentityCache(in, out.initIdentityCache());
}

}  // namespace fips::router
