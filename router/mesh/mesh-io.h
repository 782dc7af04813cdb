// SPDX-License-Identifier: MIT
// MeshIo and WallClock: the edges of the sans-IO mesh node core (MeshNode).
// The node sends datagrams and reports what changed through MeshIo, and
// reads Unix time (stamped into tree declarations) from WallClock;
// fips-router implements both over the transport workers and the system
// clock, the simulator (tests/sim) over a virtual network and virtual time.
// Calls happen inside MeshNode methods and must not call back into the node.
#pragma once

#include <cstdint>
#include <span>

#include "lib/identity/node-addr.h"
#include "router/link/link-io.h"
#include "router/link/transport-addr.h"
#include "router/stp/coordinates.h"

namespace fips::router::mesh {

// Wall-clock time, injected: Unix seconds.
class WallClock {
 public:
  virtual ~WallClock() = default;
  virtual uint64_t unixSecs() const = 0;
};

class MeshIo {
 public:
  virtual ~MeshIo() = default;
  // One FMP packet to hand to the transport named by to.transportId.
  virtual void sendDatagram(const link::TransportAddr& to, std::span<const uint8_t> packet) = 0;
  // Lifecycle notices, for logs (the defaults do nothing).
  virtual void onLinkUp(const link::PeerInfo&) {}
  // An active link switched to our outbound session (LinkIo::onLinkSwapped).
  virtual void onLinkSwapped(const link::PeerInfo&) {}
  virtual void onLinkDown(const link::PeerInfo&, link::LinkDownReason) {}
  // A path MTU probe (RFC 8899): like sendDatagram, but it must leave
  // unfragmented (DF set). The default sends it as data.
  virtual void sendProbe(const link::TransportAddr& to, std::span<const uint8_t> packet) {
    sendDatagram(to, packet);
  }
  // The path MTU estimate of the link to peer changed (bytes, whole FMP
  // packet), for logs.
  virtual void onLinkMtuChanged(const identity::NodeAddr&, uint16_t /*before*/,
                                uint16_t /*after*/) {}
  // Our tree position changed: new root, parent or coordinates (self → root).
  virtual void onTreeChanged(const stp::Coordinates&) {}
  // A lookup we started was answered with a verified proof: target's
  // coordinates (now in the coordinate cache).
  virtual void onLookupResolved(const identity::NodeAddr&, const stp::Coordinates&) {}
  // A lookup we started ran out of attempts.
  virtual void onLookupFailed(const identity::NodeAddr&) {}
  // An FSP session with peer reached Established (spec 04 §2; initiator:
  // we sent the SessionSetup) / was removed.
  virtual void onSessionUp(const identity::NodeAddr&, bool /*initiator*/) {}
  virtual void onSessionDown(const identity::NodeAddr&) {}
};

}  // namespace fips::router::mesh
