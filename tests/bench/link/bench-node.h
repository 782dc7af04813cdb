// SPDX-License-Identifier: MIT
// BenchNode: one FMP node of bench-link, a real LinkManager (real IK
// handshake, ChaCha20-Poly1305 frames, heartbeats, rekeys at the default
// thresholds) whose datagrams go to whatever I/O the run wires in (the
// bench's own UDP batching, or the TransportSet of a router process). The
// dialing node sends frames of a fixed UDP payload size; the other counts
// what authenticates. Developer tool; peers are the benchmark's own nodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "router/daemon/router-daemon.h"
#include "router/link/link-manager.h"
#include "tests/bench/link/bench-proc.h"

namespace fips::bench {

// Frame (UDP payload) sizes: HEARTBEAT_FRAME is a Heartbeat with no body,
// the smallest established frame; larger ones are SessionDatagrams.
inline constexpr size_t HEARTBEAT_FRAME = router::fmp::LINK_OVERHEAD;  // 37

// Who a node is, and for the dialing node, whom it dials.
struct NodeSpec {
  crypto::SecretKey key;
  std::optional<crypto::PublicKey> dialKey;  // set on the sending node
  router::link::TransportAddr dialAddr;
};

// Not copyable or movable (the engine holds references into it).
class BenchNode final : public router::link::LinkIo {
 public:
  using Output = std::function<void(const router::link::TransportAddr&, std::span<const uint8_t>)>;

  // frameBytes: UDP payload size of every data frame the node sends.
  BenchNode(NodeSpec spec, size_t frameBytes, SharedCounters& shared, Output out);
  BenchNode(const BenchNode&) = delete;
  BenchNode& operator=(const BenchNode&) = delete;

  // Dials the peer (the msg1 goes to Output at once), if the spec names one.
  void start();
  void onDatagram(const router::link::TransportAddr& from, std::span<const uint8_t> packet);
  // Seals and sends up to n frames; 0 while no link is up.
  size_t sendFrames(size_t n);
  bool linkUp() const { return peer_.has_value(); }
  // Ticks the engine once a second and publishes the counters.
  void service();

 private:
  void sendDatagram(const router::link::TransportAddr& to,
                    std::span<const uint8_t> packet) override;
  void onLinkUp(const router::link::PeerInfo& peer) override;
  void onLinkDown(const router::link::PeerInfo& peer, router::link::LinkDownReason reason) override;
  void onLinkMessage(const identity::NodeAddr& peer, router::fmp::LinkMessageType type,
                     std::span<const uint8_t> body) override;

  crypto::Secp256k1Context ctx_;
  crypto::OpenSslRng rng_;
  router::SteadyClock clock_;
  std::optional<crypto::PublicKey> dialKey_;
  router::link::TransportAddr dialAddr_;
  SharedCounters& shared_;
  Output out_;
  router::link::LinkConfig linkConfig_;  // the defaults; LinkManager keeps a reference
  std::unique_ptr<router::link::LinkManager> links_;
  std::optional<identity::NodeAddr> peer_;
  router::fmp::LinkMessageType type_;
  std::vector<uint8_t> body_;
  uint64_t sent_ = 0;
  uint64_t messages_ = 0;     // SessionDatagrams delivered to us
  uint64_t established_ = 0;  // established-phase datagrams fed to the engine
  uint64_t nextTickMs_ = 0;
};

}  // namespace fips::bench
