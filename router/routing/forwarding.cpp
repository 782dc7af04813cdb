// SPDX-License-Identifier: MIT
// SessionDatagram forwarding decision (FIPS spec 02 §7, 03 §6, 04 §6). Runs
// in fips-router; bodies are untrusted peer input.
#include "router/routing/forwarding.h"

#include <algorithm>

#include "router/fmp/fmp-constants.h"
#include "router/routing/routing-signal.h"

namespace fips::router::routing {

namespace {

// Entries of the signal limiter older than this are forgotten (reference: 10 s).
constexpr uint64_t SIGNAL_LIMITER_MAX_AGE_MS = 10000;

NodeAddr toNodeAddr(const fmp::NodeAddrBytes& bytes) {
  return NodeAddr(bytes);
}

// Size of the FMP packet that carries a link message of messageBytes bytes
// (type byte included): header 16 ‖ timestamp 4 ‖ message ‖ tag 16.
size_t fmpPacketSize(size_t messageBytes) {
  return messageBytes + fmp::LINK_OVERHEAD - 1;
}

}  // namespace

const char* toString(ForwardDrop drop) {
  switch (drop) {
    case ForwardDrop::DECODE_ERROR:
      return "decode_error";
    case ForwardDrop::TTL_EXHAUSTED:
      return "ttl_exhausted";
    case ForwardDrop::NO_ROUTE:
      return "no_route";
    case ForwardDrop::MTU_EXCEEDED:
      return "mtu_exceeded";
    case ForwardDrop::SEND_ERROR:
      return "send_error";
  }
  return "unknown";
}

Forwarder::Forwarder(const ForwardingConfig& config)
    : config_(config), signalLimiter_(config.signalMinIntervalMs, SIGNAL_LIMITER_MAX_AGE_MS) {}

ForwardResult Forwarder::drop(ForwardResult result, ForwardDrop reason, size_t bytes) {
  const auto i = static_cast<size_t>(reason);
  ++counters_.dropPackets[i];
  counters_.dropBytes[i] += bytes;
  result.action = ForwardAction::DROP;
  result.drop = reason;
  return result;
}

void Forwarder::recordSendError(size_t bodyBytes) {
  const auto i = static_cast<size_t>(ForwardDrop::SEND_ERROR);
  ++counters_.dropPackets[i];
  counters_.dropBytes[i] += bodyBytes;
}

// FIPS spec 04 §6: rate limit per original destination, then wrap the signal
// in a SessionDatagram from us to the original source and route it back.
std::optional<LinkSend> Forwarder::routeSignal(const MeshView& view, CoordCache& cache,
                                               const fmp::SessionDatagram& original,
                                               std::vector<uint8_t> fspMessage, uint64_t nowMs) {
  const NodeAddr source = toNodeAddr(original.srcAddr);
  const NextHop back = findNextHop(view, cache, source, nowMs);
  if (back.kind != NextHopKind::PEER) {
    ++counters_.signalsNoRouteBack;
    return std::nullopt;
  }
  const fmp::SessionDatagram signal{.ttl = config_.defaultTtl,
                                    .pathMtu = UINT16_MAX,
                                    .srcAddr = view.selfAddr().bytes(),
                                    .destAddr = original.srcAddr,
                                    .payload = fspMessage};
  ++counters_.signalsSent;
  return LinkSend{.peer = back.peer->addr, .message = fmp::encodeSessionDatagram(signal)};
}

ForwardResult Forwarder::onSessionDatagram(const MeshView& view, CoordCache& cache,
                                           std::span<const uint8_t> body, uint64_t nowMs) {
  ++counters_.receivedPackets;
  counters_.receivedBytes += body.size();
  ForwardResult result;
  const auto decoded = fmp::decodeSessionDatagram(body);
  if (!decoded.ok()) return drop(std::move(result), ForwardDrop::DECODE_ERROR, body.size());
  result.datagram = decoded.value();
  const fmp::SessionDatagram& dg = result.datagram;
  const NodeAddr dest = toNodeAddr(dg.destAddr);

  // Delivery to the addressed node is not TTL-gated (IP hop-limit semantics).
  if (dest == view.selfAddr()) {
    ++counters_.deliveredPackets;
    counters_.deliveredBytes += body.size();
    result.action = ForwardAction::DELIVER_LOCAL;
    return result;
  }
  // A forwarder decrements first and drops what would leave with TTL 0.
  if (dg.ttl <= 1) return drop(std::move(result), ForwardDrop::TTL_EXHAUSTED, body.size());

  const NextHop hop = findNextHop(view, cache, dest, nowMs);
  if (hop.kind != NextHopKind::PEER) {
    // LOCAL cannot happen here (dest != self); PATH_BROKEN means cached coords.
    if (signalLimiter_.allow(dest, nowMs)) {
      const CoordCacheEntry* known = cache.get(dest, nowMs);
      const NodeAddr self = view.selfAddr();
      const RoutingSignal signal =
          known != nullptr
              ? RoutingSignal{PathBroken{
                    .destAddr = dest, .reporter = self, .lastKnownCoords = known->coords}}
              : RoutingSignal{CoordsRequired{.destAddr = dest, .reporter = self}};
      result.signal = routeSignal(view, cache, dg, encodeRoutingSignal(signal), nowMs);
    } else {
      ++counters_.signalsRateLimited;
    }
    return drop(std::move(result), ForwardDrop::NO_ROUTE, body.size());
  }

  const PeerView& next = *hop.peer;
  fmp::SessionDatagram out = dg;
  out.ttl = static_cast<uint8_t>(dg.ttl - 1);
  out.pathMtu = std::min(dg.pathMtu, next.linkMtu);
  std::vector<uint8_t> message = fmp::encodeSessionDatagram(out);
  if (fmpPacketSize(message.size()) > std::max(next.linkMtu, next.hardMtu)) {
    if (signalLimiter_.allow(dest, nowMs)) {
      const RoutingSignal signal =
          MtuExceeded{.destAddr = dest, .reporter = view.selfAddr(), .mtu = next.linkMtu};
      result.signal = routeSignal(view, cache, dg, encodeRoutingSignal(signal), nowMs);
    } else {
      ++counters_.signalsRateLimited;
    }
    return drop(std::move(result), ForwardDrop::MTU_EXCEEDED, body.size());
  }

  const CoordCacheEntry* destEntry = cache.get(dest, nowMs);
  result.routeClass =
      classifyForward(dest, next.addr, view.selfAddr(), view.selfCoords(),
                      destEntry != nullptr ? &destEntry->coords : nullptr, next.coords);
  ++counters_.routeClass[static_cast<size_t>(result.routeClass)];
  ++counters_.forwardedPackets;
  counters_.forwardedBytes += message.size() - 1;
  result.action = ForwardAction::FORWARD;
  result.forward = LinkSend{.peer = next.addr, .message = std::move(message)};
  return result;
}

}  // namespace fips::router::routing
