// SPDX-License-Identifier: MIT
// The fips-router process around the protocol core: its channels to the
// supervisor, the tun-helper and the transport workers, the tick timer, and
// the mesh node core (router/mesh) fed with what the workers receive. Runs in
// fips-router (unprivileged, seccomp). Workers face the network and are
// less trusted than the router (see transport-set.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "privsep/allow-table.h"
#include "privsep/channel.h"
#include "privsep/libevent.h"
#include "privsep/supervisor-link.h"

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-context.h"
#include "router/control/service/control-commands.h"
#include "router/control/service/control-plane.h"
#include "router/control/snapshot/control-snapshot.h"
#include "router/control/snapshot/history-sampler.h"
#include "router/daemon/dns-service.h"
#include "router/daemon/name-service.h"
#include "router/daemon/on-demand-lookups.h"
#include "router/daemon/peer-dialer.h"
#include "router/daemon/tun-device.h"
#include "router/link/link-io.h"
#include "router/mesh/mesh-io.h"
#include "router/mesh/mesh-node.h"
#include "router/transports/peer-resolver.h"
#include "router/transports/static-peers.h"
#include "router/transports/transport-set.h"
#include "tun.capnp.h"

namespace fips::router {

// The wall of the sans-IO core: monotonic ms since the router started.
class SteadyClock final : public link::Clock {
 public:
  uint64_t nowMs() const override {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::steady_clock::now() - start_)
                                     .count());
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Unix seconds from the system clock (stamped into tree declarations).
class SystemWallClock final : public mesh::WallClock {
 public:
  uint64_t unixSecs() const override {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::seconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
  }
};

// Owns the router's event loop wiring. Not copyable or movable.
class RouterDaemon final : public mesh::MeshIo {
 public:
  // tunChannel: the router's end of the tun-helper channel, empty when the
  // TUN is disabled.
  RouterDaemon(privsep::EventBase& base, UniqueFd tunChannel);
  RouterDaemon(const RouterDaemon&) = delete;
  RouterDaemon& operator=(const RouterDaemon&) = delete;
  ~RouterDaemon() override;

 private:
  void onConfigure(schema::SupervisorRequest::Configure::Reader configure);
  // peers and warnings: the slice's static peers, read before the sandbox.
  void startMesh(schema::RouterConfig::Reader slice, crypto::SecretKey key,
                 std::vector<DialablePeer> peers, std::vector<std::string> warnings);
  void onControlCommand(schema::ControlCommand::Reader command,
                        schema::ControlReply::Builder reply);
  void onTunEvent(capnp::MessageReader& reader, std::vector<UniqueFd>& fds);
  void stop();
  void logCounters() const;
  static void onTick(evutil_socket_t, short, void* arg);

  // mesh::MeshIo
  void sendDatagram(const link::TransportAddr& to, std::span<const uint8_t> packet) override;
  void sendProbe(const link::TransportAddr& to, std::span<const uint8_t> packet) override;
  void onLinkMtuChanged(const identity::NodeAddr& peer, uint16_t before, uint16_t after) override;
  void onLinkUp(const link::PeerInfo& peer) override;
  void onLinkSwapped(const link::PeerInfo& peer) override;
  void onLinkDown(const link::PeerInfo& peer, link::LinkDownReason reason) override;
  void onTreeChanged(const stp::Coordinates& coords) override;
  void onLookupResolved(const identity::NodeAddr& target, const stp::Coordinates& coords) override;
  void onLookupFailed(const identity::NodeAddr& target) override;
  void onSessionUp(const identity::NodeAddr& peer, bool initiator) override;
  void onSessionDown(const identity::NodeAddr& peer) override;

  privsep::EventBase& base_;
  crypto::Secp256k1Context secp_;
  crypto::OpenSslRng rng_;
  SteadyClock clock_;
  SystemWallClock wall_;
  TransportSet transports_;
  std::unique_ptr<mesh::MeshNode> mesh_;
  privsep::EventPtr tickTimer_;
  uint32_t tickMs_ = 1000;  // the tick period (ms): a probe report's tick_ms
  privsep::SupervisorLink supervisor_;
  std::unique_ptr<privsep::Channel> tunChannel_;
  privsep::AllowTable<schema::TunEvent::Which, 4> tunAllow_;
  std::unique_ptr<TunDevice> tun_;
  NameService names_;  // the host map and the DNS responder
  PeerDialer peers_;   // static, host-named and on-demand peers
  bool stopping_ = false;
  // Last member: destroyed first, so the control thread is joined while
  // everything it was told about still exists.
  ControlPlane control_;
};

}  // namespace fips::router
