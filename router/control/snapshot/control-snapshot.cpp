// SPDX-License-Identifier: MIT
// NodeSnapshot builder (see control-snapshot.h).
#include "router/control/snapshot/control-snapshot.h"

#include "lib/identity/fips-address.h"
#include "lib/identity/nip19.h"
#include "router/link/drop-reason.h"

namespace fips::router {

namespace {

using schema::NodeSnapshot;

const TransportInfo* transportById(const SnapshotInput& in, uint32_t id) {
  for (const auto& t : in.transports) {
    if (t.id == id) return &t;
  }
  return nullptr;
}

std::string typeOf(const std::string& name) {
  return name.substr(0, name.find('/'));
}

std::string displayName(const NodeFacts& facts, const link::PeerInfo& peer,
                        const std::string& npub) {
  auto name = facts.displayNames.find(peer.addr);
  return name != facts.displayNames.end() ? name->second : shortNpub(npub);
}

void fillStatus(const SnapshotInput& in, schema::NodeStatus::Builder s) {
  const NodeFacts& f = *in.facts;
  s.setNpub(f.npub);
  s.setNodeAddr(kj::arrayPtr(f.nodeAddr.bytes().data(), f.nodeAddr.bytes().size()));
  s.setIpv6(kj::arrayPtr(f.ipv6.data(), f.ipv6.size()));
  s.setVersion(f.version);
  s.setUptimeSecs((in.nowMonoMs - std::min(in.nowMonoMs, in.startMonoMs)) / 1000);
  s.setPeerCount(static_cast<uint32_t>(in.peers.size()));
  s.setLinkCount(static_cast<uint32_t>(in.peers.size()));
  s.setConnectionCount(static_cast<uint32_t>(in.pendingHandshakes));
  s.setTransportCount(static_cast<uint32_t>(in.transports.size()));
  s.setTunName(f.tunName);
  s.setTunState(in.tunState);
  s.setState(in.state);
  s.setIsLeafOnly(f.leafOnly);
  s.setControlSocket(f.controlSocket);
  s.setPid(f.pid);
  s.setExePath(f.exePath);
  // Every transport type with a worker, then the peers riding each.
  std::map<std::string, uint32_t> perType;
  for (const auto& t : in.transports) perType.try_emplace(typeOf(t.name), 0);
  for (const auto& p : in.peers) {
    if (const TransportInfo* t = transportById(in, p.current.transportId))
      ++perType[typeOf(t->name)];
  }
  auto counts = s.initTransportPeerCounts(static_cast<unsigned>(perType.size()));
  unsigned i = 0;
  for (const auto& [type, count] : perType) {
    counts[i].setType(type);
    counts[i].setCount(count);
    ++i;
  }
}

void fillTraffic(const link::LinkMetrics& m, schema::LinkTraffic::Builder out) {
  out.setPacketsSent(m.packetsSent);
  out.setPacketsRecv(m.packetsRecv);
  out.setBytesSent(m.bytesSent);
  out.setBytesRecv(m.bytesRecv);
}

void fillPeers(const SnapshotInput& in, NodeSnapshot::Builder out) {
  auto peers = out.initPeers(static_cast<unsigned>(in.peers.size()));
  auto links = out.initLinks(static_cast<unsigned>(in.peers.size()));
  for (unsigned i = 0; i < in.peers.size(); ++i) {
    const link::PeerInfo& p = in.peers[i];
    const std::string npub = identity::encodeNpub(p.key);
    const TransportInfo* t = transportById(in, p.current.transportId);
    const std::string name = t ? t->name : "";
    const auto ipv6 = identity::FipsAddress::fromNodeAddr(p.addr).bytes();
    auto peer = peers[i];
    peer.setNodeAddr(kj::arrayPtr(p.addr.bytes().data(), p.addr.bytes().size()));
    peer.setNpub(npub);
    const std::string peerName = displayName(*in.facts, p, npub);
    peer.setDisplayName(peerName);
    peer.setIpv6(kj::arrayPtr(ipv6.data(), ipv6.size()));
    peer.setTransportId(p.current.transportId);
    peer.setTransportType(typeOf(name));
    peer.setTransportName(name);
    peer.setTransportAddr(link::toText(p.current));
    peer.setOutbound(p.outbound);
    peer.setAuthenticatedAtMs(toUnixMs(in, p.upSinceMs));
    peer.setLastSeenMs(toUnixMs(in, p.lastRecvMs));
    peer.setOurIndex(p.ourIndex);
    peer.setTheirIndex(p.theirIndex);
    peer.setRekeys(p.rekeys);
    fillTraffic(p.metrics, peer.initStats());
    fillMmp(p.metrics, peer.initMmp());
    auto l = links[i];
    l.setTransportId(p.current.transportId);
    l.setRemoteAddr(link::toText(p.current));
    l.setOutbound(p.outbound);
    l.setState("connected");
    l.setCreatedAtMs(toUnixMs(in, p.upSinceMs));
    l.setLastRecvMs(toUnixMs(in, p.lastRecvMs));
    l.setNpub(npub);
    l.setDisplayName(peerName);
    fillTraffic(p.metrics, l.initStats());
  }
}

void fillTransports(const SnapshotInput& in, NodeSnapshot::Builder out) {
  auto list = out.initTransports(static_cast<unsigned>(in.transports.size()));
  for (unsigned i = 0; i < in.transports.size(); ++i) {
    const TransportInfo& t = in.transports[i];
    auto e = list[i];
    e.setTransportId(t.id);
    e.setType(typeOf(t.name));
    e.setName(t.name);
    e.setState(t.bound ? "up" : "starting");
    auto addrs = e.initLocalAddrs(static_cast<unsigned>(t.localAddrs.size()));
    for (unsigned k = 0; k < t.localAddrs.size(); ++k) addrs.set(k, t.localAddrs[k]);
    e.setPacketsSent(t.packetsOut);
    e.setPacketsRecv(t.packetsIn);
    e.setBytesSent(t.bytesOut);
    e.setBytesRecv(t.bytesIn);
    e.setSendErrors(t.sendErrors);
    e.setKernelDrops(t.kernelDrops);
    e.setWorkerRecv(t.workerRx);
    e.setWorkerSent(t.workerTx);
    auto counters = e.initCounters(static_cast<unsigned>(t.counters.size()));
    for (unsigned k = 0; k < t.counters.size(); ++k) {
      counters[k].setName(t.counters[k].first);
      counters[k].setValue(t.counters[k].second);
    }
  }
}

// One counter family as (name, value) rows, in the reference's key order.
using StatRows = std::vector<std::pair<const char*, uint64_t>>;

void setStats(capnp::List<schema::Counter>::Builder list, const char* family,
              const StatRows& rows) {
  for (unsigned i = 0; i < rows.size(); ++i) {
    list[i].setFamily(family);
    list[i].setName(rows[i].first);
    list[i].setValue(rows[i].second);
  }
}

// The reference's "received": every verdict of a per-verdict counter array.
template <typename Verdicts>
uint64_t verdictTotal(const Verdicts& verdicts) {
  uint64_t total = 0;
  for (uint64_t v : verdicts) total += v;
  return total;
}

// The reference's tree stats keys, from our counters.
StatRows treeStats(const stp::TreeCounters& c) {
  using stp::TreeVerdict;
  return {
      {"received", verdictTotal(c.verdicts)},
      {"accepted", c.verdict(TreeVerdict::ACCEPTED)},
      {"decode_error", c.verdict(TreeVerdict::DECODE_ERROR)},
      {"unknown_peer", c.verdict(TreeVerdict::UNKNOWN_PEER)},
      {"addr_mismatch", c.verdict(TreeVerdict::ADDR_MISMATCH)},
      {"sig_failed", c.verdict(TreeVerdict::BAD_SIGNATURE)},
      {"ancestry_invalid", c.verdict(TreeVerdict::BAD_ANCESTRY)},
      {"stale", c.verdict(TreeVerdict::STALE)},
      {"sent", c.announcesSent},
      {"rate_limited", c.rateLimited},
      {"parent_switches", c.parentSwitches},
      {"parent_losses", c.parentLosses},
      {"loop_detected", c.loopsDetected},
      {"ancestry_changed", c.ancestryChanged},
      {"flap_dampened", c.flapDampened},
      {"outbound_sign_failed", c.signFailures},
  };
}

// The reference's bloom stats keys, from our counters.
StatRows bloomStats(const bloom::BloomCounters& c) {
  using bloom::BloomVerdict;
  return {
      {"received", verdictTotal(c.verdicts)},
      {"accepted", c.verdict(BloomVerdict::ACCEPTED)},
      {"decode_error", c.verdict(BloomVerdict::DECODE_ERROR)},
      {"unknown_peer", c.verdict(BloomVerdict::UNKNOWN_PEER)},
      {"stale", c.verdict(BloomVerdict::STALE)},
      {"fill_exceeded", c.verdict(BloomVerdict::FPR_EXCEEDED)},
      {"sent", c.sent},
  };
}

struct CounterRow {
  const char* family;
  std::string name;
  std::string labelName;
  std::string labelValue;
  uint64_t value;
  const char* help;
};

std::vector<CounterRow> counterRows(const SnapshotInput& in) {
  const link::LinkCounters& l = in.linkCounters;
  const TransportCounters& t = in.transportCounters;
  std::vector<CounterRow> rows = {
      {"link", "handshakes_out", "", "", l.handshakesOut, "msg1s this node initiated"},
      {"link", "handshakes_in", "", "", l.handshakesIn, "msg1s answered with a new link"},
      {"link", "duplicate_msg1", "", "", l.duplicateMsg1, "msg1s answered with a stored msg2"},
      {"link", "msg1_frame_resends", "", "", l.msg1FrameResends,
       "msg1s resent at once for a frame that beat its lost msg2"},
      {"link", "links_up", "", "", l.linksUp, "links established"},
      {"link", "links_down", "", "", l.linksDown, "links taken down"},
      {"link", "msg1_admission_sources", "", "", l.admissionSources,
       "msg1 source addresses and IPv6 /64s tracked by admission"},
      {"link", "msg1_admission_evictions", "", "", l.admissionEvictions,
       "msg1 sources forgotten to keep the admission table bounded"},
      {"link", "msg1_reserve_admits", "", "", l.admissionReserveAdmits,
       "msg1s from quiet sources admitted from the global bucket's reserve"},
      {"link", "messages_ignored", "", "", in.linkMessagesIgnored, "link messages no layer reads"},
  };
  for (size_t r = 0; r < link::DROP_REASON_COUNT; ++r) {
    const auto reason = static_cast<link::DropReason>(r);
    rows.push_back({"link", "drops", "reason", link::toString(reason), l.dropped(reason),
                    "received datagrams dropped by the link layer"});
  }
  rows.push_back({"transport", "datagrams_in", "", "", t.datagramsIn, "datagrams from workers"});
  rows.push_back({"transport", "datagrams_out", "", "", t.datagramsOut, "datagrams to workers"});
  rows.push_back({"transport", "dropped_no_transport", "", "", t.droppedNoTransport,
                  "outgoing datagrams dropped while their transport was not bound"});
  rows.push_back({"transport", "dropped_backpressure", "", "", t.droppedBackpressure,
                  "outgoing datagrams dropped because a worker fell behind"});
  rows.push_back({"transport", "kernel_drops", "", "", t.kernelDrops,
                  "datagrams the kernel dropped on receive (SO_RXQ_OVFL)"});
  if (in.mesh == nullptr) return rows;
  for (const auto& [name, value] : treeStats(in.mesh->tree().counters()))
    rows.push_back({"tree", name, "", "", value, "spanning tree (TreeAnnounce) events"});
  for (const auto& [name, value] : bloomStats(in.mesh->bloom().counters()))
    rows.push_back({"bloom", name, "", "", value, "bloom filter (FilterAnnounce) events"});
  for (const auto& [name, value] : discoveryStats(in.mesh->lookups().counters()))
    rows.push_back({"discovery", name, "", "", value, "coordinate lookup events"});
  for (const auto& [name, value] : forwardingStats(in.mesh->forwarding()))
    rows.push_back({"forwarding", name, "", "", value, "SessionDatagram forwarding events"});
  return rows;
}

void fillCounters(const SnapshotInput& in, NodeSnapshot::Builder out) {
  const auto rows = counterRows(in);
  auto list = out.initCounters(static_cast<unsigned>(rows.size()));
  for (unsigned i = 0; i < rows.size(); ++i) {
    list[i].setFamily(rows[i].family);
    list[i].setName(rows[i].name);
    list[i].setLabelName(rows[i].labelName);
    list[i].setLabelValue(rows[i].labelValue);
    list[i].setValue(rows[i].value);
    list[i].setHelp(rows[i].help);
  }
}

kj::ArrayPtr<const uint8_t> bytesOf(const identity::NodeAddr& addr) {
  return kj::arrayPtr(addr.bytes().data(), addr.bytes().size());
}

void setCoords(capnp::List<capnp::Data>::Builder list, const stp::Coordinates& coords) {
  for (unsigned i = 0; i < coords.path().size(); ++i) list.set(i, bytesOf(coords.path()[i]));
}

void fillTree(const SnapshotInput& in, schema::TreeStatus::Builder t) {
  const stp::TreeState& tree = in.mesh->tree();
  const stp::Coordinates& mine = tree.coordinates();
  t.setMyNodeAddr(bytesOf(tree.self()));
  t.setRoot(bytesOf(tree.root()));
  if (auto npub = npubOf(in, tree.root())) t.setRootNpub(*npub);
  t.setIsRoot(tree.isRoot());
  t.setDepth(static_cast<uint32_t>(mine.depth()));
  setCoords(t.initMyCoords(static_cast<unsigned>(mine.path().size())), mine);
  const identity::NodeAddr parent = tree.parent().value_or(tree.self());
  t.setParent(bytesOf(parent));
  t.setParentDisplayName(nameOf(in, parent));
  t.setDeclarationSequence(tree.declaration().sequence);
  t.setDeclarationSigned(tree.declarationSigned());
  const auto peers = tree.peers();
  auto list = t.initPeers(static_cast<unsigned>(peers.size()));
  for (unsigned i = 0; i < peers.size(); ++i) {
    auto p = list[i];
    p.setNodeAddr(bytesOf(peers[i]));
    p.setDisplayName(nameOf(in, peers[i]));
    const stp::Coordinates* coords = tree.peerCoordinates(peers[i]);
    if (coords == nullptr || coords->empty()) continue;
    p.setHasCoords(true);
    setCoords(p.initCoords(static_cast<unsigned>(coords->path().size())), *coords);
    p.setDepth(static_cast<uint32_t>(coords->depth()));
    p.setRoot(bytesOf(*coords->root()));
    p.setDistanceToUs(static_cast<uint32_t>(mine.distance(*coords)));
  }
  const auto stats = treeStats(tree.counters());
  setStats(t.initStats(static_cast<unsigned>(stats.size())), "tree", stats);
}

void fillBloom(const SnapshotInput& in, schema::BloomStatus::Builder b) {
  const bloom::BloomState& state = in.mesh->bloom();
  b.setOwnNodeAddr(bytesOf(in.facts->nodeAddr));
  b.setIsLeafOnly(in.facts->leafOnly);
  b.setSequence(state.sequence());
  auto list = b.initPeerFilters(static_cast<unsigned>(in.peers.size()));
  for (unsigned i = 0; i < in.peers.size(); ++i) {
    const identity::NodeAddr& addr = in.peers[i].addr;
    auto f = list[i];
    f.setPeer(bytesOf(addr));
    f.setDisplayName(nameOf(in, addr));
    const bloom::BloomFilter* filter = state.inboundFilter(addr);
    if (filter == nullptr) continue;
    f.setHasFilter(true);
    f.setSetBits(filter->countOnes());
    f.setFillRatio(filter->fillRatio());
    f.setEstimatedCount(
        filter->estimatedCount(in.mesh->config().bloom.maxInboundFpr).value_or(-1.0));
  }
  const auto stats = bloomStats(state.counters());
  setStats(b.initStats(static_cast<unsigned>(stats.size())), "bloom", stats);
}

void fillCache(const SnapshotInput& in, schema::CacheStatus::Builder c) {
  const routing::CoordCache& cache = in.mesh->coordCache();
  c.setCount(static_cast<uint32_t>(cache.size()));
  c.setMaxEntries(static_cast<uint32_t>(cache.capacity()));
  c.setDefaultTtlMs(cache.ttlMs());
  const auto ageOf = [&](const routing::CoordCacheEntry& e) {
    return in.nowMonoMs > e.createdMs ? in.nowMonoMs - e.createdMs : 0;
  };
  uint32_t expired = 0;
  uint64_t ageSum = 0;
  cache.forEach([&](const identity::NodeAddr&, const routing::CoordCacheEntry& e) {
    if (in.nowMonoMs > e.expiresMs) ++expired;
    ageSum += ageOf(e);
  });
  c.setExpired(expired);
  c.setAvgAgeMs(cache.size() == 0 ? 0 : ageSum / cache.size());
  auto list = c.initEntries(static_cast<unsigned>(std::min(cache.size(), SNAPSHOT_CACHE_ENTRIES)));
  unsigned i = 0;
  cache.forEach([&](const identity::NodeAddr& addr, const routing::CoordCacheEntry& e) {
    if (i >= list.size()) return;
    auto entry = list[i++];
    const auto ipv6 = identity::FipsAddress::fromNodeAddr(addr).bytes();
    entry.setNodeAddr(bytesOf(addr));
    entry.setDisplayName(nameOf(in, addr));
    entry.setIpv6(kj::arrayPtr(ipv6.data(), ipv6.size()));
    setCoords(entry.initCoords(static_cast<unsigned>(e.coords.path().size())), e.coords);
    entry.setDepth(static_cast<uint32_t>(e.coords.depth()));
    entry.setAgeMs(ageOf(e));
    entry.setLastUsedMs(toUnixMs(in, e.lastUsedMs));
    entry.setPathMtu(e.pathMtu.value_or(0));
  });
}

}  // namespace

namespace {

const char* trendText(const std::optional<link::Trend>& trend) {
  return trend ? link::toString(*trend) : "";
}

}  // namespace

// FIPS spec 02 §9.3: what this node measured on one link.
void fillMmp(const link::LinkMetrics& m, schema::LinkMmp::Builder out) {
  out.setMode(link::toString(m.mode));
  out.setSpinBitRole(m.spinInitiator ? "initiator" : "responder");
  out.setHasSrtt(m.srttMs.has_value());
  out.setSrttMs(m.srttMs.value_or(0.0));
  out.setRttvarMs(m.rttvarMs.value_or(0.0));
  out.setLossRate(m.lossRate);
  out.setEtx(m.etx);
  out.setGoodputBps(m.goodputBps);
  out.setDeliveryRatioForward(m.deliveryForward);
  out.setDeliveryRatioReverse(m.deliveryReverse);
  out.setHasSmoothedLoss(m.smoothedLoss.has_value());
  out.setSmoothedLoss(m.smoothedLoss.value_or(0.0));
  out.setHasSmoothedEtx(m.smoothedEtx.has_value());
  out.setSmoothedEtx(m.smoothedEtx.value_or(0.0));
  out.setRttTrend(trendText(m.rttTrend));
  out.setLossTrend(trendText(m.lossTrend));
  out.setGoodputTrend(trendText(m.goodputTrend));
  out.setJitterTrend(trendText(m.jitterTrend));
  out.setEcnCeCount(m.ecnCeCount);
  out.setJitterUs(m.jitterUs);
  out.setLinkCost(m.linkCost);
  out.setSenderReportsSent(m.senderReportsSent);
  out.setReceiverReportsSent(m.receiverReportsSent);
  out.setSenderReportsRecv(m.senderReportsRecv);
  out.setReceiverReportsRecv(m.receiverReportsRecv);
  out.setStaleReports(m.staleReports);
  out.setRttSamples(m.rttSamples);
  out.setReorderCount(m.reorderCount);
  out.setLossBursts(m.lossBursts);
}

// A monotonic instant as Unix ms, through the pair of clocks sampled together.
uint64_t toUnixMs(const SnapshotInput& in, uint64_t monoMs) {
  const uint64_t age = in.nowMonoMs > monoMs ? in.nowMonoMs - monoMs : 0;
  return in.nowUnixMs > age ? in.nowUnixMs - age : 0;
}

// The npub of addr if this node knows its key: ourselves, a peer, the
// identity cache.
std::optional<std::string> npubOf(const SnapshotInput& in, const identity::NodeAddr& addr) {
  if (addr == in.facts->nodeAddr) return in.facts->npub;
  for (const auto& p : in.peers) {
    if (p.addr == addr) return identity::encodeNpub(p.key);
  }
  std::optional<std::string> found;
  const auto match = [&](const routing::CachedIdentity& e) {
    if (!found && e.addr == addr) found = identity::encodeNpub(e.key);
  };
  if (in.mesh != nullptr) {
    in.mesh->identities().forEach(match);
  } else {
    for (const auto& e : in.routing.identities) match(e);
  }
  return found;
}

std::string nameOf(const SnapshotInput& in, const identity::NodeAddr& addr) {
  auto name = in.facts->displayNames.find(addr);
  if (name != in.facts->displayNames.end()) return name->second;
  auto npub = npubOf(in, addr);
  return npub ? shortNpub(*npub) : shortAddr(addr);
}

// The reference's discovery family, one row per lookup counter.
std::vector<std::pair<const char*, uint64_t>> discoveryStats(const lookup::LookupCounters& c) {
  return {
      {"req_received", c.reqReceived},
      {"req_decode_error", c.reqDecodeError},
      {"req_duplicate", c.reqDuplicate},
      {"req_dedup_cache_full", c.reqDedupCacheFull},
      {"req_target_is_us", c.reqTargetIsUs},
      {"req_forwarded", c.reqForwarded},
      {"req_ttl_exhausted", c.reqTtlExhausted},
      {"req_initiated", c.reqInitiated},
      {"req_deduplicated", c.reqDeduplicated},
      {"req_backoff_suppressed", c.reqBackoffSuppressed},
      {"req_forward_rate_limited", c.reqForwardRateLimited},
      {"req_bloom_miss", c.reqBloomMiss},
      {"req_no_tree_peer", c.reqNoTreePeer},
      {"req_fallback_forwarded", c.reqFallbackForwarded},
      {"resp_received", c.respReceived},
      {"resp_decode_error", c.respDecodeError},
      {"resp_forwarded", c.respForwarded},
      {"resp_already_forwarded", c.respAlreadyForwarded},
      {"resp_identity_miss", c.respIdentityMiss},
      {"resp_proof_failed", c.respProofFailed},
      {"resp_accepted", c.respAccepted},
      {"resp_timed_out", c.respTimedOut},
      {"resp_mtu_below_floor", c.respMtuBelowFloor},
      {"resp_no_route", c.respNoRoute},
      {"sign_failed", c.signFailed},
      {"rng_failed", c.rngFailed},
  };
}

std::string shortAddr(const identity::NodeAddr& addr) {
  return addr.toHex().substr(0, 8) + "...";
}

std::string shortNpub(const std::string& npub) {
  if (npub.size() < 13 || !npub.starts_with("npub1")) return npub;
  const std::string data = npub.substr(5);
  return "npub1" + data.substr(0, 4) + "..." + data.substr(data.size() - 4);
}

void buildSnapshot(const SnapshotInput& in, schema::NodeSnapshot::Builder out) {
  fillStatus(in, out.initStatus());
  fillPeers(in, out);
  fillTransports(in, out);
  fillCounters(in, out);
  if (in.mesh != nullptr) {
    fillTree(in, out.initTree());
    fillBloom(in, out.initBloom());
    fillCache(in, out.initCache());
  }
  fillRoutingSections(in, out);
}

}  // namespace fips::router
