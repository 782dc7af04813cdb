// SPDX-License-Identifier: MIT
// MeshNode's link path MTU (RFC 8899 datagram PLPMTUD, docs/design/path-mtu.md):
// one LinkPmtu per active link. A probe is a LookupRequest for the peer
// itself with ttl 0, padded with trailing bytes to the size under test: an
// unmodified reference peer decodes it (trailing bytes ignored), answers it
// with a LookupResponse echoing the request id, and never forwards it (it
// is the target). That answer acknowledges the size end to end, with ICMP
// dropped or not. The estimate bounds the path_mtu we originate and fold,
// the session path MTU (and so the TUN's MSS clamp and Packet Too Big),
// and is lowered at once by the kernel's path MTU when a send exceeds it.
// Runs in fips-router; responses come from authenticated peers.
#include "router/lookup/lookup-messages.h"
#include "router/mesh/mesh-node.h"

namespace fips::router::mesh {

namespace {

// Established frame bytes around a link message: 16 header, 4 timestamp
// (the type byte is in the message), 16 tag (spec 02 §3).
constexpr size_t FRAME_OVERHEAD = 16 + 4 + 16;

}  // namespace

uint16_t MeshNode::linkMtuOf(const identity::NodeAddr& peer) const {
  const auto it = pmtu_.find(peer);
  return it == pmtu_.end() ? transportMtu_ : std::min(it->second.mtu(), transportMtu_);
}

void MeshNode::startPathMtu(const identity::NodeAddr& peer) {
  if (!config_->pmtuProbing) return;
  if (nextProbeId_ == 0) {
    // Probe ids count up from a start that differs per node and run, so a
    // restarted node does not repeat ids its peers still remember.
    for (size_t i = 0; i < sizeof(nextProbeId_); ++i) {
      nextProbeId_ = nextProbeId_ << 8U | self().bytes()[i];
    }
    nextProbeId_ ^= clock_.nowMs() << 20U;
    nextProbeId_ |= 1;
  }
  link::LinkPmtuConfig config = config_->pmtu;
  config.maxMtu = transportMtu_;
  pmtu_.insert_or_assign(peer, link::LinkPmtu(config, clock_.nowMs()));
}

void MeshNode::pollPathMtu(const identity::NodeAddr& peer) {
  auto it = pmtu_.find(peer);
  if (it == pmtu_.end()) return;
  const uint16_t before = it->second.mtu();
  const auto probe = it->second.poll(clock_.nowMs(), nextProbeId_);
  noteMtuChange(peer, before, it->second.mtu());
  if (!probe) return;
  ++nextProbeId_;
  lookup::LookupRequest request{.requestId = probe->id,
                                .target = peer,
                                .origin = self(),
                                .ttl = 0,
                                .minMtu = 0,
                                .originCoords = tree_.coordinates()};
  std::vector<uint8_t> message = lookup::encodeLookupRequest(request);
  const size_t wanted = probe->size > FRAME_OVERHEAD ? probe->size - FRAME_OVERHEAD : 0;
  if (message.size() < wanted) message.resize(wanted, 0);
  probes_.push_back(Outgoing{peer, fmp::LinkMessageType::LOOKUP_REQUEST,
                             std::vector<uint8_t>(message.begin() + 1, message.end())});
  ++pmtuCounters_.probesSent;
}

bool MeshNode::onProbeAnswer(const identity::NodeAddr& peer, std::span<const uint8_t> body) {
  auto it = pmtu_.find(peer);
  if (it == pmtu_.end()) return false;
  const auto decoded = lookup::decodeLookupResponse(body);
  if (!decoded.ok() || decoded.value().target != peer) return false;
  const uint16_t before = it->second.mtu();
  if (!it->second.onAck(decoded.value().requestId, clock_.nowMs())) return false;
  ++pmtuCounters_.probesAcked;
  noteMtuChange(peer, before, it->second.mtu());
  pollPathMtu(peer);  // the next size at once
  return true;
}

void MeshNode::onKernelPathMtu(const link::TransportAddr& to, uint16_t mtu) {
  ++pmtuCounters_.kernelReports;
  for (const auto& peer : links_.peers()) {
    if (!(peer.current == to)) continue;
    auto it = pmtu_.find(peer.addr);
    if (it == pmtu_.end()) continue;
    const uint16_t before = it->second.mtu();
    it->second.onCeiling(mtu, clock_.nowMs());
    noteMtuChange(peer.addr, before, it->second.mtu());
  }
}

void MeshNode::noteMtuChange(const identity::NodeAddr& peer, uint16_t before, uint16_t after) {
  if (before == after) return;
  ++pmtuCounters_.changes;
  io_.onLinkMtuChanged(peer, before, after);
}

void MeshNode::tickPathMtu() {
  std::vector<identity::NodeAddr> peers;
  peers.reserve(pmtu_.size());
  for (const auto& [peer, state] : pmtu_) peers.push_back(peer);
  for (const auto& peer : peers) pollPathMtu(peer);
}

}  // namespace fips::router::mesh
