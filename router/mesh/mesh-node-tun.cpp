// SPDX-License-Identifier: MIT
// MeshNode's IPv6 adapter (FIPS spec 05 §1-§3): packets read from the TUN
// are classified (hairpin, Packet Too Big, Destination Unreachable), mapped
// to a node through the identity cache, MSS-clamped, compressed and sent as
// Data on port 256; Data on port 256 is decompressed, CE-marked and clamped
// and written to the TUN; packets that waited for a session that never came
// are answered with Destination Unreachable. Runs in fips-router: TUN
// packets are local but unvalidated, session payloads are untrusted.
#include "lib/identity/fips-address.h"
#include "router/ipv6/ipv6-shim.h"
#include "router/ipv6/tcp-mss.h"
#include "router/ipv6/tun-outbound.h"
#include "router/mesh/mesh-node.h"

namespace fips::router::mesh {

namespace {

constexpr uint16_t IPV6_SHIM_PORT = 256;  // spec 05 §2

std::optional<uint16_t> knownPathMtu(const fsp::SessionTable& sessions,
                                     const identity::NodeAddr& peer) {
  const auto info = sessions.info(peer);
  if (!info || info->pathMtu == fsp::PathMtuState::UNKNOWN || info->pathMtu == 0)
    return std::nullopt;
  return info->pathMtu;
}

const Ipv6Counters NO_IPV6_COUNTERS{};

}  // namespace

ipv6::Ipv6Addr MeshNode::ipv6Address() const {
  return identity::FipsAddress::fromNodeAddr(self()).bytes();
}

const Ipv6Counters& MeshNode::ipv6Counters() const {
  return ipv6_ ? ipv6_->counters : NO_IPV6_COUNTERS;
}

MeshNode::Ipv6State& MeshNode::ipv6State() {
  if (!ipv6_) {
    ipv6_ = std::make_unique<Ipv6State>();
    ipv6_->addr = ipv6Address();
  }
  return *ipv6_;
}

uint16_t MeshNode::effectiveMtu() const {
  return ipv6::effectiveIpv6Mtu(transportMtu_);
}

uint16_t MeshNode::maxMssFor(const identity::NodeAddr& peer) const {
  return ipv6::perFlowMaxMss(ipv6::mssCeiling(transportMtu_), knownPathMtu(sessions_, peer));
}

void MeshNode::onTunPacket(std::span<uint8_t> packet) {
  Ipv6State& v6 = ipv6State();
  ++v6.counters.tunIn;
  const ipv6::Outbound out = ipv6::classifyOutbound(packet, v6.addr, effectiveMtu());
  switch (out.verdict) {
    case ipv6::OutboundVerdict::DROP:
      ++v6.counters.dropped;
      return;
    case ipv6::OutboundVerdict::HAIRPIN:
      ++v6.counters.hairpinned;
      if (tun_) tun_->writeTun(packet);
      return;
    case ipv6::OutboundVerdict::PACKET_TOO_BIG:
      writeIcmpError(ipv6::buildPacketTooBig(packet, out.mtu, v6.addr));
      return;
    case ipv6::OutboundVerdict::DEST_UNREACHABLE:
      writeIcmpError(ipv6::buildDestUnreachable(packet, ipv6::UnreachableCode::NO_ROUTE, v6.addr));
      return;
    case ipv6::OutboundVerdict::SEND:
      break;
  }
  const auto* id = ids_.findByPrefix(out.prefix);
  if (!id) {
    // Never resolved through DNS or configured: no key, no session.
    writeIcmpError(ipv6::buildDestUnreachable(packet, ipv6::UnreachableCode::NO_ROUTE, v6.addr));
    return;
  }
  const identity::NodeAddr dest = id->addr;
  const auto pathMtu = knownPathMtu(sessions_, dest);
  if (const auto mtu = ipv6::pathPacketTooBig(packet.size(), effectiveMtu(), pathMtu.value_or(0))) {
    writeIcmpError(ipv6::buildPacketTooBig(packet, *mtu, v6.addr));
    // A Packet Too Big under 1280 is ignored by senders (RFC 8201 §4), so a
    // flow that started before the path shrank cannot follow it: its
    // packets are sent anyway (the underlay fragments them) rather than
    // lost, while new flows get the smaller MSS clamp.
    if (*mtu >= ipv6::MIN_IPV6_MTU) return;
    ++v6.counters.oversizeSent;
  }
  ipv6::clampTcpMss(packet, maxMssFor(dest));
  const auto shim = ipv6::compressIpv6(packet);
  if (!shim) {
    ++v6.counters.dropped;
    return;
  }
  const auto outcome = sendData(dest, IPV6_SHIM_PORT, IPV6_SHIM_PORT, *shim);
  if (outcome == fsp::SendOutcome::DROPPED_QUEUE || outcome == fsp::SendOutcome::FAILED) {
    ++v6.counters.dropped;
  } else {
    ++v6.counters.sent;
  }
}

void MeshNode::deliverIpv6(const fsp::DeliverData& data) {
  Ipv6State& v6 = ipv6State();
  if (data.dstPort != IPV6_SHIM_PORT || !tun_) {
    ++v6.counters.dropped;
    return;
  }
  const auto src = identity::FipsAddress::fromNodeAddr(data.src).bytes();
  auto packet = ipv6::decompressIpv6(data.payload, src, v6.addr);
  if (!packet) {
    ++v6.counters.dropped;
    return;
  }
  if (data.ce) ipv6::markEcnCe(*packet);
  ipv6::clampTcpMss(*packet, maxMssFor(data.src));
  ++v6.counters.delivered;
  tun_->writeTun(*packet);
}

// Only a failed lookup is answered (spec 05 §1: no route to the node); a
// handshake timeout or a closed session drops silently, as the reference.
void MeshNode::dropPending(const fsp::DropPending& dropped) {
  Ipv6State& v6 = ipv6State();
  if (dropped.reason != fsp::PendingDropReason::NO_ROUTE) {
    v6.counters.dropped += dropped.packets.size();
    return;
  }
  const auto dest = identity::FipsAddress::fromNodeAddr(dropped.dest).bytes();
  for (const auto& pending : dropped.packets) {
    if (pending.dstPort != IPV6_SHIM_PORT) continue;
    // The queued shim is rebuilt into the packet the host sent.
    const auto packet = ipv6::decompressIpv6(pending.payload, v6.addr, dest);
    if (!packet) continue;
    writeIcmpError(ipv6::buildDestUnreachable(*packet, ipv6::UnreachableCode::NO_ROUTE, v6.addr));
  }
}

void MeshNode::writeIcmpError(std::optional<std::vector<uint8_t>> packet) {
  Ipv6State& v6 = ipv6State();
  // The error goes to the offender's source: our own address or a local one.
  if (!packet || !tun_ || !v6.icmpLimiter.allow(ipv6::destinationAddr(*packet), clock_.nowMs())) {
    ++v6.counters.icmpRateLimited;
    return;
  }
  const uint8_t type = (*packet)[ipv6::IPV6_HEADER_SIZE];
  if (type == ipv6::ICMPV6_PACKET_TOO_BIG) {
    ++v6.counters.tooBigSent;
  } else {
    ++v6.counters.unreachableSent;
  }
  tun_->writeTun(*packet);
}

}  // namespace fips::router::mesh
