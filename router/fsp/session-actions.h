// SPDX-License-Identifier: MIT
// What the sans-IO FSP session table asks of its caller (the mesh node):
// send an FSP message to a node, deliver Data to a port, start a lookup,
// dispose of packets that waited for a session, and session lifecycle
// events. Runs in fips-router; values only, no I/O.
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "lib/identity/node-addr.h"
#include "router/fsp/pending-queue.h"

namespace fips::router::fsp {

using identity::NodeAddr;

// Wrap message in a SessionDatagram (src = us, dest, ttl, path_mtu = the
// first-hop link MTU) and route it. If routing finds no next hop, call
// SessionTable::onRouteFailed(dest).
struct SendFsp {
  NodeAddr dest;
  uint8_t ttl = 0;
  std::vector<uint8_t> message;  // a whole FSP message (prefix first)
};

// A Data message arrived on an established session. Port 256 is the IPv6
// shim (router/ipv6/ipv6-shim.h: decompressIpv6, then markEcnCe if ce);
// other ports go to the native API or are dropped.
struct DeliverData {
  NodeAddr src;
  uint16_t srcPort = 0;
  uint16_t dstPort = 0;
  std::vector<uint8_t> payload;
  bool ce = false;  // the carrying frame had ECN CE set
};

// Start a discovery lookup for dest (its coordinates / reachability).
struct StartLookup {
  NodeAddr dest;
};

// Why queued packets were given up.
enum class PendingDropReason : uint8_t {
  NO_ROUTE,           // the lookup failed: answer IPv6 packets with Destination Unreachable
  HANDSHAKE_TIMEOUT,  // the session never established
  SESSION_CLOSED,     // the session was removed while packets waited
};

// Packets that waited for dest and will not be sent.
struct DropPending {
  NodeAddr dest;
  PendingDropReason reason = PendingDropReason::NO_ROUTE;
  std::vector<PendingPacket> packets;
};

// A session reached Established (either role).
struct SessionUp {
  NodeAddr peer;
  bool initiator = false;
};

enum class SessionCloseReason : uint8_t {
  IDLE,               // no Data for idle_timeout_secs
  HANDSHAKE_TIMEOUT,  // not established within handshake_timeout_secs
  REMOVED,            // removeSession(): FMP peer removed or restarted
  ADDR_MISMATCH,      // msg3 static key does not hash to src_addr
  PROBE_TEARDOWN,     // closeProbeSession(): the probe removed the session it opened
};

// A session (established or not) was removed.
struct SessionDown {
  NodeAddr peer;
  SessionCloseReason reason = SessionCloseReason::IDLE;
};

using SessionAction =
    std::variant<SendFsp, DeliverData, StartLookup, DropPending, SessionUp, SessionDown>;
using SessionActions = std::vector<SessionAction>;

}  // namespace fips::router::fsp
