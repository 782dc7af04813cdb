// SPDX-License-Identifier: MIT
// The forwarding decision for a received SessionDatagram (link msg 0x00):
// deliver locally, forward to a next hop, or drop, with the routing error
// signal a transit node owes the source (FIPS spec 02 §7, spec 03 §6, spec 04
// §6; src/proto/routing/core.rs Router::route, src/node/dataplane/
// forwarding.rs). Runs in fips-router on every datagram from a peer; the
// body is untrusted.
//
// Pipeline (one call, synchronous, no buffering):
//   decode envelope → dest == self? deliver (TTL not checked)
//   → ttl − 1 == 0? drop → findNextHop → none? drop + CoordsRequired/PathBroken
//   → re-encode (ttl − 1, path_mtu min-folded with the next link's MTU)
//   → larger than that link's MTU? drop + MtuExceeded → forward.
// Signals pass a per-destination rate limit and are routed back toward the
// datagram's source with findNextHop; if there is no route back they are
// dropped silently (no cascading errors).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "router/fmp/session-datagram.h"
#include "router/routing/coord-cache.h"
#include "router/routing/mesh-view.h"
#include "router/routing/next-hop.h"
#include "router/routing/per-addr-rate-limiter.h"
#include "router/routing/route-class.h"

namespace fips::router::routing {

// node.session.default_ttl and the signal rate limit (spec 03 §8, 04 §8).
struct ForwardingConfig {
  uint8_t defaultTtl = 64;             // TTL of the error signals we originate
  uint64_t signalMinIntervalMs = 100;  // per destination, all three signals together
};

// Why a datagram was not delivered or forwarded (reference ForwardingReject).
enum class ForwardDrop : uint8_t {
  DECODE_ERROR,   // body shorter than the 35-byte envelope
  TTL_EXHAUSTED,  // transit datagram whose TTL would leave at 0
  NO_ROUTE,       // findNextHop found none (CoordsRequired / PathBroken sent)
  MTU_EXCEEDED,   // re-encoded frame larger than the next link's MTU (MtuExceeded sent)
  SEND_ERROR,     // the caller could not send a FORWARD (recordSendError)
};

constexpr size_t FORWARD_DROP_COUNT = 5;

// Name for stats ("ttl_exhausted").
const char* toString(ForwardDrop drop);

// Packet and byte counters (bytes = body length, after the type byte), as
// the reference's forwarding stats.
struct ForwardingCounters {
  uint64_t receivedPackets = 0;
  uint64_t receivedBytes = 0;
  uint64_t deliveredPackets = 0;
  uint64_t deliveredBytes = 0;
  uint64_t forwardedPackets = 0;  // decided forwards (bytes: re-encoded body)
  uint64_t forwardedBytes = 0;
  uint64_t originatedPackets = 0;  // SessionDatagrams this node sent as source
  uint64_t originatedBytes = 0;
  std::array<uint64_t, FORWARD_DROP_COUNT> dropPackets{};  // by ForwardDrop
  std::array<uint64_t, FORWARD_DROP_COUNT> dropBytes{};
  std::array<uint64_t, ROUTE_CLASS_COUNT> routeClass{};  // by RouteClass, sums to forwardedPackets
  uint64_t signalsSent = 0;
  uint64_t signalsRateLimited = 0;
  uint64_t signalsNoRouteBack = 0;
};

// A link message for a direct peer: the whole SessionDatagram, type byte 0x00 first.
struct LinkSend {
  NodeAddr peer;
  std::vector<uint8_t> message;
};

enum class ForwardAction : uint8_t { DELIVER_LOCAL, FORWARD, DROP };

struct ForwardResult {
  ForwardAction action = ForwardAction::DROP;
  ForwardDrop drop = ForwardDrop::DECODE_ERROR;  // when DROP
  // The decoded envelope (not for DECODE_ERROR). For DELIVER_LOCAL hand
  // srcAddr, payload (borrows the input body) and pathMtu to the session layer.
  fmp::SessionDatagram datagram;
  std::optional<LinkSend> forward;                  // FORWARD: send to forward->peer
  RouteClass routeClass = RouteClass::DIRECT_PEER;  // FORWARD
  // NO_ROUTE / MTU_EXCEEDED: the error signal datagram to send, if the rate
  // limit allowed it and a route back to the source exists.
  std::optional<LinkSend> signal;
};

// Owns the signal rate limiter and the counters; everything else is read
// from the view and the cache at call time.
class Forwarder {
 public:
  explicit Forwarder(const ForwardingConfig& config = {});

  // Decides what to do with the body (bytes after type 0x00) of a
  // SessionDatagram received from a peer at nowMs (monotonic ms). The caller
  // warms the coordinate cache from FSP headers first (spec 03 §7) and then
  // executes the result: deliver, send forward, send signal.
  ForwardResult onSessionDatagram(const MeshView& view, CoordCache& cache,
                                  std::span<const uint8_t> body, uint64_t nowMs);

  // The caller could not send a FORWARD result of bodyBytes bytes.
  void recordSendError(size_t bodyBytes);
  // This node sent a SessionDatagram of bodyBytes bytes as its source.
  void recordOriginated(size_t bodyBytes) {
    ++counters_.originatedPackets;
    counters_.originatedBytes += bodyBytes;
  }

  const ForwardingCounters& counters() const { return counters_; }

 private:
  ForwardResult drop(ForwardResult result, ForwardDrop reason, size_t bytes);
  std::optional<LinkSend> routeSignal(const MeshView& view, CoordCache& cache,
                                      const fmp::SessionDatagram& original,
                                      std::vector<uint8_t> fspMessage, uint64_t nowMs);

  ForwardingConfig config_;
  PerAddrRateLimiter signalLimiter_;
  ForwardingCounters counters_;
};

}  // namespace fips::router::routing
