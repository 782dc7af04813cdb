// SPDX-License-Identifier: MIT
// fipsctl probe stages (see probe.h).
#include "router/control/probe/probe.h"

#include <algorithm>
#include <variant>

#include <fmt/format.h>

#include "lib/identity/fips-address.h"
#include "lib/identity/nip19.h"
#include "router/control/snapshot/control-snapshot.h"
#include "router/routing/route-class.h"

namespace fips::router {

namespace {

using schema::ProbeReport;

kj::ArrayPtr<const uint8_t> bytesOf(const identity::NodeAddr& addr) {
  return kj::arrayPtr(addr.bytes().data(), addr.bytes().size());
}

void stage(schema::ProbeStage::Builder s, const char* verdict, const char* reason = "",
           const std::string& detail = "") {
  s.setVerdict(verdict);
  s.setReason(reason);
  s.setDetail(detail);
}

void setCoords(capnp::List<capnp::Data>::Builder list, const stp::Coordinates& coords) {
  for (unsigned i = 0; i < coords.path().size(); ++i) list.set(i, bytesOf(coords.path()[i]));
}

std::string nameOf(const std::map<identity::NodeAddr, std::string>& aliases,
                   const identity::NodeAddr& addr, const std::string& npub) {
  auto alias = aliases.find(addr);
  if (alias != aliases.end()) return alias->second;
  return npub.empty() ? shortAddr(addr) : shortNpub(npub);
}

std::optional<link::PeerInfo> directPeer(const mesh::MeshNode& mesh,
                                         const identity::NodeAddr& addr) {
  for (const auto& p : mesh.snapshot().peers) {
    if (p.addr == addr) return p;
  }
  return std::nullopt;
}

// Target coordinates: a direct peer's announced ones, else the cache's.
const stp::Coordinates* targetCoords(const mesh::MeshNode& mesh, const identity::NodeAddr& addr,
                                     bool direct) {
  if (direct) {
    const stp::Coordinates* c = mesh.tree().peerCoordinates(addr);
    if (c != nullptr && !c->empty()) return c;
  }
  return mesh.cachedCoords(addr);
}

// bloom and discovery: where the coordinates come from, and the lookup.
// True when the target's coordinates are known.
bool discover(mesh::MeshNode& mesh, const identity::NodeAddr& addr, bool direct, bool cached,
              bool startLookup, ProbeReport::Builder r) {
  if (direct || cached) {
    const char* why = direct ? "direct_peer" : "coords_cached";
    stage(r.initBloom(), "skipped", why);
    stage(r.initDiscovery(), "ok");
    r.setDiscoverySource(direct ? "direct_peer" : "cache");
    return true;
  }
  for (const auto& p : mesh.lookups().pendingLookups()) {
    if (p.target != addr) continue;
    stage(r.initBloom(), "ok");
    r.setLookupIssued(true);
    stage(r.initDiscovery(), "running");
    r.setDiscoverySource("lookup");
    r.setDiscoveryAttempt(static_cast<uint32_t>(p.attempt));
    return false;
  }
  if (!startLookup) {
    // The lookup this probe started is over and left no coordinates.
    stage(r.initBloom(), "ok");
    r.setLookupIssued(true);
    stage(r.initDiscovery(), "failed", "no_response",
          "no LookupResponse answered for the target within the lookup ladder");
    r.setDiscoverySource("lookup");
    return false;
  }
  size_t fanout = 0;
  switch (mesh.lookup(addr, &fanout)) {
    case lookup::LookupStart::STARTED:
      r.setLookupFanout(static_cast<int32_t>(fanout));
      [[fallthrough]];
    case lookup::LookupStart::ALREADY_PENDING:
      stage(r.initBloom(), "ok");
      r.setLookupIssued(true);
      stage(r.initDiscovery(), "running");
      r.setDiscoverySource("lookup");
      r.setDiscoveryAttempt(1);
      return false;
    case lookup::LookupStart::BLOOM_MISS:
      stage(r.initBloom(), "failed", "bloom_miss",
            "no peer's bloom filter claims the target: the mesh has not heard of it");
      break;
    case lookup::LookupStart::NO_TREE_PEER:
      r.setLookupFanout(0);
      stage(r.initBloom(), "failed", "no_tree_peer",
            "only non-tree peers claim the target; lookups go to tree peers");
      break;
    case lookup::LookupStart::BACKOFF:
      stage(r.initBloom(), "failed", "backoff", "lookups for the target are backed off");
      break;
  }
  stage(r.initDiscovery(), "not_reached");
  return false;
}

void path(mesh::MeshNode& mesh, const identity::NodeAddr& addr, const stp::Coordinates* theirs,
          const std::map<identity::NodeAddr, std::string>& aliases, ProbeReport::Builder r) {
  const stp::Coordinates& ours = mesh.tree().coordinates();
  if (theirs != nullptr) {
    r.setCoordsKnown(true);
    setCoords(r.initOurCoords(static_cast<unsigned>(ours.path().size())), ours);
    setCoords(r.initTheirCoords(static_cast<unsigned>(theirs->path().size())), *theirs);
    const bool sameRoot = ours.root() == theirs->root();
    r.setSameRoot(sameRoot);
    if (sameRoot) {
      const size_t lcaDepth = ours.lcaDepth(*theirs);
      r.setLcaDepth(static_cast<uint32_t>(lcaDepth));
      r.setLca(bytesOf(ours.path()[ours.path().size() - 1 - lcaDepth]));
      r.setTreeHopsUp(static_cast<uint32_t>(ours.depth() - lcaDepth));
      r.setTreeHopsDown(static_cast<uint32_t>(theirs->depth() - lcaDepth));
    }
  }
  const mesh::MeshRoute route = mesh.route(addr);
  if (route.kind == routing::NextHopKind::PEER && route.peer) {
    r.setHasNextHop(true);
    r.setNextHop(bytesOf(*route.peer));
    // A peer's display name as everywhere else: its alias, else its short npub.
    const auto hop = directPeer(mesh, *route.peer);
    r.setNextHopDisplayName(
        nameOf(aliases, *route.peer, hop ? identity::encodeNpub(hop->key) : ""));
    const stp::Coordinates* peerCoords = mesh.tree().peerCoordinates(*route.peer);
    r.setNextHopClass(routing::toString(
        routing::classifyForward(addr, *route.peer, mesh.self(), ours, theirs, peerCoords)));
    stage(r.initPath(), "ok");
    return;
  }
  const char* why =
      route.kind == routing::NextHopKind::PATH_BROKEN ? "path_broken" : "coords_required";
  r.setNoHopReason(why);
  stage(r.initPath(), "failed", why,
        theirs == nullptr ? "no coordinates for the target" : "no peer leads closer to the target");
}

// session: an existing session is reported (left intact) as pre-existing,
// with what ProbeJob needs to tell whether it is still the one the probe
// opened (createdMs, initiator, no Data on it); with none and a next hop, a
// probe that opened none yet opens one (the reference's probe does too) and
// only that call says so (sessionOpened). Returns the session once
// established.
std::optional<fsp::SessionInfo> session(mesh::MeshNode& mesh, const identity::NodeAddr& addr,
                                        bool pathOk, bool mayOpen, ProbeReport::Builder r) {
  auto info = mesh.sessions().info(addr);
  if (!info) {
    if (!pathOk) {
      stage(r.initSession(), "not_reached");
      return std::nullopt;
    }
    if (!mayOpen) {
      stage(r.initSession(), "running", "", "the session the probe opened is gone");
      return std::nullopt;
    }
    if (!mesh.openSession(addr)) {
      stage(r.initSession(), "failed", "send_error", "the SessionSetup could not be sent");
      return std::nullopt;
    }
    r.setSessionOpened(true);
    if (auto opened = mesh.sessions().info(addr)) {
      r.setSessionCreatedMs(opened->createdMs);
      r.setSessionInitiator(opened->initiator);
      r.setSessionProbeOnly(opened->openedForProbe);
    }
    stage(r.initSession(), "running", "", "opened a session for the probe");
    return std::nullopt;
  }
  r.setSessionPreexisting(true);
  r.setSessionCreatedMs(info->createdMs);
  r.setSessionInitiator(info->initiator);
  r.setSessionProbeOnly(info->openedForProbe && info->packetsRecv == 0 &&
                        !mesh.sessions().pending().has(addr));
  const bool established = info->state == fsp::SessionState::ESTABLISHED;
  r.setSessionEstablished(established);
  if (info->pathMtu != fsp::PathMtuState::UNKNOWN) r.setPathMtu(info->pathMtu);
  if (!established) {
    stage(r.initSession(), "running", "", "the session is handshaking");
    return std::nullopt;
  }
  // The reference's verdict for a session it did not open (left intact).
  stage(r.initSession(), "skipped", "preexisting", "an existing session (left intact)");
  return info;
}

// rtt: the session's SRTT from session-layer MMP (spec 04 §3.3); "ok" once
// it has one. ProbeJob holds that back until a sample taken after the probe
// started (rttSamples grew). Each call on an established session gets one
// CoordsWarmup, so the remote has a frame to report on: while nothing was
// sealed yet, or while an SRTT exists (it may predate the probe); not while
// the first ReceiverReport after traffic is awaited. Callers call at most
// every 250 ms (control/probe-job.h PROBE_POLL_INTERVAL_MS).
void rtt(mesh::MeshNode& mesh, const identity::NodeAddr& addr,
         const std::optional<fsp::SessionInfo>& info, ProbeReport::Builder r) {
  if (!info) {
    const auto verdict = r.asReader().getSession().getVerdict();
    stage(r.initRtt(), verdict == "running" ? "running" : "not_reached", "",
          verdict == "running" ? "waiting for the session" : "");
    return;
  }
  if (!info->mmp || info->mmp->mode == link::MmpMode::MINIMAL) {
    stage(r.initRtt(), "failed", "mmp_disabled", "session MMP is off (node.session_mmp.mode)");
    return;
  }
  const fsp::SessionMetrics& m = *info->mmp;
  r.setRttSamples(m.rttSamples);
  r.setRttReportsSeen(m.receiverReportsRecv + m.staleReports);
  r.setRttZeroSamples(m.rttZeroSamples);
  r.setRttArithFailures(m.rttArithFailures);
  if ((m.packetsSent == 0 || m.srttMs) && mesh.sendSessionWarmup(addr)) r.setWarmupsSent(1);
  if (m.srttMs) {
    r.setHasSrtt(true);
    r.setSrttMs(*m.srttMs);
    r.setLastRttMs(m.lastRttMs.value_or(0));
    stage(r.initRtt(), "ok");
    return;
  }
  stage(r.initRtt(), "running", "", "waiting for the first session ReceiverReport");
}

const char* teardownText(fsp::ProbeTeardown outcome) {
  switch (outcome) {
    case fsp::ProbeTeardown::TORN_DOWN:
      return "torn_down";
    case fsp::ProbeTeardown::GONE:
      return "gone";
    case fsp::ProbeTeardown::REPLACED:
      return "replaced";
    case fsp::ProbeTeardown::ADOPTED:
      return "adopted_by_traffic";
  }
  return "";
}

}  // namespace

void runProbe(const ProbeCall& call, mesh::MeshNode& mesh,
              const std::map<identity::NodeAddr, std::string>& aliases,
              schema::CommandResult::Builder result, schema::ProbeReport::Builder r) {
  const std::string& npub = call.npub;
  auto key = identity::decodeNpub(npub);
  if (!key.ok()) {
    return result.setError(fmt::format("invalid npub '{}': {}", npub, key.error().message));
  }
  const auto& targetKey = key.value();
  const auto addr = identity::NodeAddr::fromPublicKey(targetKey);
  if (addr == mesh.self()) return result.setError("cannot probe this node");
  result.setOk();

  r.setTargetNpub(npub);
  r.setTargetNodeAddr(bytesOf(addr));
  r.setTargetDisplayName(nameOf(aliases, addr, npub));
  const auto ipv6 = identity::FipsAddress::fromNodeAddr(addr).bytes();
  r.setTargetIpv6(kj::arrayPtr(ipv6.data(), ipv6.size()));
  r.setTickMs(call.tickMs);
  if (call.teardown) {
    if (call.ownedSessionMs != 0) {
      r.setCleanup(teardownText(mesh.closeProbeSession(addr, call.ownedSessionMs)));
    }
    return;
  }
  const auto& ladder = mesh.config().lookup.attemptTimeoutsSecs;
  auto timeouts = r.initAttemptTimeoutsSecs(static_cast<unsigned>(ladder.size()));
  for (unsigned i = 0; i < ladder.size(); ++i) timeouts.set(i, static_cast<uint32_t>(ladder[i]));

  r.setIdentityWasCached(mesh.identities().contains(addr));
  mesh.learnIdentity(targetKey);  // the lookup's proof verifies against it
  const bool direct = directPeer(mesh, addr).has_value();
  const bool cached = mesh.cachedCoords(addr) != nullptr;
  r.setCoordsWereCached(cached);
  const bool discovered = discover(mesh, addr, direct, cached, call.startLookup, r);
  path(mesh, addr, discovered ? targetCoords(mesh, addr, direct) : nullptr, aliases, r);
  const auto established =
      session(mesh, addr, r.asReader().getPath().getVerdict() == "ok", call.ownedSessionMs == 0, r);
  rtt(mesh, addr, established, r);
}

}  // namespace fips::router
