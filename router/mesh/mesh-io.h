// SPDX-License-Identifier: MIT
// MeshIo: the edge of the sans-IO mesh node core (MeshNode). The node sends
// datagrams and reports what changed through it; fips-router implements it
// over the transport workers, the simulator (tests/sim) over a virtual
// network. Calls happen inside MeshNode methods and must not call back into
// the node.
#pragma once

#include <cstdint>
#include <span>

#include "router/link/link-io.h"
#include "router/link/transport-addr.h"

namespace fips::router::mesh {

class MeshIo {
 public:
  virtual ~MeshIo() = default;
  // One FMP packet to hand to the transport named by to.transportId.
  virtual void sendDatagram(const link::TransportAddr& to, std::span<const uint8_t> packet) = 0;
  // Lifecycle notices, for logs (the default does nothing).
  virtual void onLinkUp(const link::PeerInfo&) {}
  virtual void onLinkDown(const link::PeerInfo&, link::LinkDownReason) {}
};

}  // namespace fips::router::mesh
