// SPDX-License-Identifier: MIT
// MeshNode: the sans-IO core of one FIPS node at the mesh layer (spec 02,
// spec 03). It owns the FMP link engine and the mesh components, hands each
// authenticated link message to the component of its type, sends what they
// produce, ticks them, and exposes snapshots for the daemon, the control
// surface and the simulator. Runs in fips-router (and many times in one
// process in tests/sim); datagrams handed to onDatagram() are untrusted.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "router/crypto/rng.h"
#include "router/crypto/secp256k1-context.h"
#include "router/crypto/secp256k1-keys.h"
#include "router/fmp/fmp-constants.h"
#include "router/identity/node-addr.h"
#include "router/identity/public-key.h"
#include "router/link/link-io.h"
#include "router/link/link-manager.h"
#include "router/mesh/mesh-config.h"
#include "router/mesh/mesh-io.h"
#include "router/noise/handshake.h"

namespace fips::router::mesh {

// Link messages received by type, and the ones no component took.
struct MeshCounters {
  std::array<uint64_t, 256> messagesIn{};  // by msg_type byte
  uint64_t unhandled = 0;                  // types with no component yet (#5, #6)
};

// What the node looks like now.
struct MeshSnapshot {
  identity::NodeAddr self;
  std::vector<link::PeerInfo> peers;
};

class MeshNode final : private link::LinkIo {
 public:
  // ctx, clock, rng and io are borrowed and must outlive the node; epoch is
  // this process's 8 random startup bytes (spec 02 §5).
  MeshNode(const crypto::Secp256k1Context& ctx, crypto::KeyPair localKey, noise::Epoch epoch,
           const MeshConfig& config, const link::Clock& clock, crypto::Rng& rng, MeshIo& io);
  MeshNode(const MeshNode&) = delete;
  MeshNode& operator=(const MeshNode&) = delete;
  ~MeshNode() override = default;

  // Static peers (see LinkManager::addStaticPeer / removePeer).
  bool addStaticPeer(const identity::PublicKey& key, std::vector<link::TransportAddr> addrs);
  bool removePeer(const identity::NodeAddr& peer);
  // The receive entry point for every datagram from a transport.
  void onDatagram(const link::TransportAddr& from, std::span<const uint8_t> packet);
  // Timers of the link engine and every component; call about once a second.
  void tick();
  // Disconnect(Shutdown) to every peer; the node is inert afterwards.
  void shutdown();

  const identity::NodeAddr& self() const { return links_.localAddr(); }
  MeshSnapshot snapshot() const;
  const link::LinkCounters& linkCounters() const { return links_.counters(); }
  const MeshCounters& counters() const { return counters_; }

 private:
  // link::LinkIo
  void sendDatagram(const link::TransportAddr& to, std::span<const uint8_t> packet) override;
  void onLinkUp(const link::PeerInfo& peer) override;
  void onLinkDown(const link::PeerInfo& peer, link::LinkDownReason reason) override;
  void onLinkMessage(const identity::NodeAddr& peer, fmp::LinkMessageType type,
                     std::span<const uint8_t> body) override;

  MeshConfig config_;
  const link::Clock& clock_;
  MeshIo& io_;
  link::LinkManager links_;
  MeshCounters counters_;
};

}  // namespace fips::router::mesh
