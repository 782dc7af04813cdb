// SPDX-License-Identifier: MIT
// MeshNode's session layer wiring (FIPS spec 02 §7, spec 03 §6-§7, spec 04):
// inbound SessionDatagrams warm the coordinate cache and go through the
// Forwarder (deliver, forward, drop + signal); datagrams for us go to the
// FSP SessionTable; its actions are carried out here: FSP messages are
// wrapped in SessionDatagrams and routed, Data is delivered, lookups are
// started and their answers returned. Runs in fips-router; datagram bodies
// come from peers and are untrusted (every decoder below drops bad input).
#include <type_traits>

#include "router/fmp/session-datagram.h"
#include "router/fsp/coord-warming.h"
#include "router/mesh/mesh-node.h"

namespace fips::router::mesh {

namespace {

identity::NodeAddr nodeAddrOf(const fmp::NodeAddrBytes& bytes) {
  return identity::NodeAddr(bytes);
}

// LinkSend messages carry the 0x00 type byte first; queue() takes the body.
std::span<const uint8_t> bodyOf(const std::vector<uint8_t>& message) {
  return message.empty() ? std::span<const uint8_t>{}
                         : std::span<const uint8_t>(message).subspan(1);
}

}  // namespace

fsp::SendOutcome MeshNode::sendData(const identity::NodeAddr& dest, uint16_t srcPort,
                                    uint16_t dstPort, std::span<const uint8_t> payload) {
  fsp::SessionActions actions;
  const auto outcome =
      sessions_.sendData(dest, srcPort, dstPort, payload, clock_.nowMs(), rng_, actions);
  apply(actions);
  flush();
  return outcome;
}

bool MeshNode::openSession(const identity::NodeAddr& dest) {
  fsp::SessionActions actions;
  const bool opened = sessions_.open(dest, clock_.nowMs(), rng_, actions);
  apply(actions);
  flush();
  return opened;
}

bool MeshNode::sendSessionWarmup(const identity::NodeAddr& dest) {
  fsp::SessionActions actions;
  const bool sent = sessions_.sendWarmup(dest, clock_.nowMs(), actions);
  apply(actions);
  flush();
  return sent;
}

fsp::ProbeTeardown MeshNode::closeProbeSession(const identity::NodeAddr& dest, uint64_t createdMs) {
  fsp::SessionActions actions;
  const auto outcome = sessions_.closeProbeSession(dest, createdMs, actions);
  apply(actions);
  flush();
  return outcome;
}

void MeshNode::setTransportMtu(uint16_t mtu) {
  transportMtu_ = mtu;
  sessions_.setTransportMtu(mtu);
}

void MeshNode::onSessionDatagram(const identity::NodeAddr& peer, std::span<const uint8_t> body) {
  const uint64_t nowMs = clock_.nowMs();
  if (const auto decoded = fmp::decodeSessionDatagram(body); decoded.ok()) {
    fsp::warmCoordCache(coords_, self(), nodeAddrOf(decoded->srcAddr),
                        nodeAddrOf(decoded->destAddr), decoded->payload, nowMs);
  }
  refreshView();
  routing::ForwardResult result = forwarder_.onSessionDatagram(*this, coords_, body, nowMs);
  if (result.forward) {
    queue(result.forward->peer, fmp::LinkMessageType::SESSION_DATAGRAM,
          bodyOf(result.forward->message));
  }
  if (result.signal) {
    queue(result.signal->peer, fmp::LinkMessageType::SESSION_DATAGRAM,
          bodyOf(result.signal->message));
  }
  if (result.action != routing::ForwardAction::DELIVER_LOCAL) return;
  // The link frame's CE flag is not reported by the link engine (#6).
  fsp::SessionActions actions;
  sessions_.onDatagram(nodeAddrOf(result.datagram.srcAddr), peer, result.datagram.payload,
                       result.datagram.pathMtu, false, nowMs, rng_, actions);
  apply(actions);
}

// Actions may add actions (a failed route starts a lookup, a failed lookup
// drops packets): the list is worked through until empty.
void MeshNode::apply(fsp::SessionActions& actions) {
  for (size_t i = 0; i < actions.size(); ++i) {
    fsp::SessionAction action = std::move(actions[i]);
    std::visit(
        [&](auto& a) {
          using T = std::decay_t<decltype(a)>;
          if constexpr (std::is_same_v<T, fsp::SendFsp>) {
            sendFsp(a, actions);
          } else if constexpr (std::is_same_v<T, fsp::DeliverData>) {
            deliverIpv6(a);
          } else if constexpr (std::is_same_v<T, fsp::StartLookup>) {
            startSessionLookup(a.dest, actions);
          } else if constexpr (std::is_same_v<T, fsp::DropPending>) {
            dropPending(a);
          } else if constexpr (std::is_same_v<T, fsp::SessionUp>) {
            io_.onSessionUp(a.peer, a.initiator);
          } else {
            io_.onSessionDown(a.peer);
          }
        },
        action);
  }
  actions.clear();
}

void MeshNode::sendFsp(const fsp::SendFsp& send, fsp::SessionActions& more) {
  refreshView();
  const routing::NextHop hop = routing::findNextHop(*this, coords_, send.dest, clock_.nowMs());
  if (hop.kind != routing::NextHopKind::PEER) {
    sessions_.onRouteFailed(send.dest, more);
    // An established session whose destination's coordinates were
    // invalidated (tree change) needs them again: look it up (spec 03 §5.3).
    lookup::LookupActions lookupActions;
    lookup_.start(*this, send.dest, clock_.nowMs(), lookupActions);
    apply(lookupActions);
    return;
  }
  const uint16_t linkMtu = std::min<uint16_t>(hop.peer->linkMtu, transportMtu_);
  fmp::SessionDatagram datagram;
  datagram.ttl = send.ttl;
  datagram.pathMtu = linkMtu;
  datagram.srcAddr = self().bytes();
  datagram.destAddr = send.dest.bytes();
  datagram.payload = send.message;
  const auto encoded = fmp::encodeSessionDatagram(datagram);
  const auto body = bodyOf(encoded);
  forwarder_.recordOriginated(body.size());
  queue(hop.peer->addr, fmp::LinkMessageType::SESSION_DATAGRAM, body);
  sessions_.seedPathMtu(send.dest, linkMtu);
}

// Lookups that cannot start (no filter has dest, backoff) are answered "not
// found" at once; the others when LookupState resolves or gives up.
void MeshNode::startSessionLookup(const identity::NodeAddr& dest, fsp::SessionActions& more) {
  refreshView();
  lookup::LookupActions lookupActions;
  const auto started = lookup_.start(*this, dest, clock_.nowMs(), lookupActions);
  if (started == lookup::LookupStart::STARTED || started == lookup::LookupStart::ALREADY_PENDING) {
    sessionLookups_.insert(dest);
    apply(lookupActions);
    return;
  }
  sessions_.onLookupResult(dest, false, clock_.nowMs(), rng_, more);
}

void MeshNode::lookupFinished(const identity::NodeAddr& target, bool found) {
  if (sessionLookups_.erase(target) == 0) return;
  fsp::SessionActions actions;
  sessions_.onLookupResult(target, found, clock_.nowMs(), rng_, actions);
  apply(actions);
}

}  // namespace fips::router::mesh
