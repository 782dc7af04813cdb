// SPDX-License-Identifier: MIT
// LinkPmtu: datagram packetization-layer path MTU discovery for one FMP link
// (RFC 8899, DPLPMTUD), sans-IO over an injected millisecond clock. It keeps
// the largest FMP packet (bytes, whole packet as the transport carries it)
// known to cross the underlay path unfragmented, between a floor
// (BASE_PLPMTU, RFC 8899 §5.1.2) and the link's configured transport MTU,
// from three inputs:
//   - acknowledged probes: padded packets sent with the don't-fragment bit
//     whose arrival the peer confirms end to end (the caller decides what a
//     probe is; see docs/design/path-mtu.md for the wire choice);
//   - probe loss: a size unacknowledged after maxProbes tries is too big
//     (RFC 8899 §5.1.1 PROBE_TIMER, MAX_PROBES), which also detects black
//     holes when the confirmed size stops getting through (§4.3);
//   - ceilings: the kernel's path MTU for the peer (ICMP learned, EMSGSIZE),
//     applied at once (§4.6.2, a validated PTB).
// Departure from RFC 8899 §5.2: the search starts optimistic, at the
// configured MTU, and falls to the floor only when that first probe is
// lost; the UDP transport sends data above the estimate with fragmentation
// allowed, so packets of flows that predate a shrink still arrive.
// Runs in fips-router; acks come from an authenticated peer.
#pragma once

#include <cstdint>
#include <optional>

namespace fips::router::link {

// Timers and sizes of the search (bytes: whole FMP packets).
struct LinkPmtuConfig {
  uint16_t maxMtu = 1280;             // the configured transport MTU: never probed above
  uint16_t baseMtu = 1200;            // BASE_PLPMTU: fallback floor when probes fail
  uint64_t probeTimeoutMs = 1000;     // PROBE_TIMER
  uint32_t maxProbes = 2;             // tries per size before it counts as too big
  uint64_t confirmIntervalMs = 5000;  // re-probe the current size (black-hole detection)
  uint64_t raiseIntervalMs = 10000;   // look for a larger path while below maxMtu
  uint16_t searchResolution = 4;      // stop searching when the bounds are this close
};

// One probe to send now: id to echo in the acknowledgement, whole packet size.
struct ProbeRequest {
  uint64_t id = 0;
  uint16_t size = 0;
};

class LinkPmtu {
 public:
  LinkPmtu(LinkPmtuConfig config, uint64_t nowMs);

  // The current estimate (bytes): what the link advertises as its MTU.
  uint16_t mtu() const { return optimistic_ ? config_.maxMtu : confirmed_; }
  // Whether a search is running (SEARCHING), else settled (SEARCH_COMPLETE).
  bool searching() const { return searching_; }
  const LinkPmtuConfig& config() const { return config_; }

  // The probe due now, if any (a new one, or a retry of the one in flight
  // under a fresh id); freshId is the id it gets. Call on every tick and
  // after onAck(). Probe loss is detected here.
  std::optional<ProbeRequest> poll(uint64_t nowMs, uint64_t freshId);
  // The peer acknowledged probe id; false if it is not the probe in flight.
  bool onAck(uint64_t id, uint64_t nowMs);
  // An upper bound from outside (bytes): the kernel's path MTU for the peer.
  // Lowers the estimate at once if smaller; ignored below 256 bytes.
  void onCeiling(uint16_t ceiling, uint64_t nowMs);

 private:
  void fail(uint16_t size);
  std::optional<ProbeRequest> send(uint16_t size, uint64_t nowMs, uint64_t id);

  LinkPmtuConfig config_;
  bool optimistic_ = true;  // maxMtu advertised until the first probe answers or fails
  bool searching_ = true;
  uint16_t confirmed_;    // largest size known to pass (the floor until one did)
  uint32_t failedAbove_;  // smallest size known to fail; maxMtu + 1 if none
  uint16_t inFlightSize_ = 0;
  uint64_t inFlightId_ = 0;
  uint64_t sentAtMs_ = 0;
  uint32_t tries_ = 0;
  uint64_t nextConfirmMs_ = 0;
  uint64_t nextRaiseMs_ = 0;
};

}  // namespace fips::router::link
