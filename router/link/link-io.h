// SPDX-License-Identifier: MIT
// The edges of the sans-IO FMP link engine: the injected monotonic clock, and
// LinkIo, through which it sends datagrams and reports links and messages.
// Runs in fips-router; the daemon implements both. Bodies handed to
// onLinkMessage are authenticated but still the peer's choice (untrusted).
#pragma once

#include <cstdint>
#include <span>

#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/node-addr.h"
#include "router/fmp/fmp-constants.h"
#include "router/link/link-mmp.h"
#include "router/link/transport-addr.h"
#include "router/noise/handshake.h"

namespace fips::router::link {

// Monotonic milliseconds, injected so tests can run on virtual time.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual uint64_t nowMs() const = 0;
};

// Why an active link went away.
enum class LinkDownReason : uint8_t {
  DEAD,               // no authenticated frame for link_dead_timeout (spec 02 §8), silent
  REMOTE_DISCONNECT,  // the peer sent Disconnect
  PEER_RESTART,       // the peer came back with a new startup epoch
  REMOVED,            // removePeer(): Disconnect ConfigurationChange was sent
  SHUTDOWN,           // shutdown(): Disconnect Shutdown was sent
};

// Name ("dead", "remote_disconnect"), for logs.
const char* toString(LinkDownReason reason);

// A snapshot of one active peer link.
struct PeerInfo {
  identity::NodeAddr addr;
  crypto::PublicKey key;
  TransportAddr current;  // where we send; follows authenticated frames (roaming)
  bool outbound = false;  // our msg1 built the session in use
  noise::Epoch remoteEpoch{};
  uint32_t ourIndex = 0;    // receiver_idx the peer puts in frames to us
  uint32_t theirIndex = 0;  // receiver_idx we put in frames to the peer
  uint64_t upSinceMs = 0;
  uint64_t lastRecvMs = 0;  // last authenticated frame (upSinceMs if none yet)
  uint64_t rekeys = 0;      // completed rekey cutovers
  LinkMetrics metrics{};    // traffic counters and MMP (spec 02 §9)
};

// Output of the engine. Calls happen inside LinkManager methods; spans are
// valid for the call only. Implementations must not call back into the
// LinkManager from these functions.
class LinkIo {
 public:
  virtual ~LinkIo() = default;
  // One FMP packet to hand to the transport named by to.transportId.
  virtual void sendDatagram(const TransportAddr& to, std::span<const uint8_t> packet) = 0;
  virtual void onLinkUp(const PeerInfo& peer) = 0;
  virtual void onLinkDown(const PeerInfo& peer, LinkDownReason reason) = 0;
  // Simultaneous dial (spec 02 §5 cross-connection): the active link, which
  // came up inbound, now uses the session of our own outbound handshake (we
  // have the smaller NodeAddr). The link stays up; `peer` is its new state
  // (outbound).
  virtual void onLinkSwapped(const PeerInfo& /*peer*/) {}
  // A link message other than Heartbeat/Disconnect (which the engine consumes);
  // body is what follows the msg_type byte, framing already checked.
  virtual void onLinkMessage(const identity::NodeAddr& peer, fmp::LinkMessageType type,
                             std::span<const uint8_t> body) = 0;
  // A ReceiverReport gave this link its first RTT measurement, so its link
  // cost is no longer the cold-start 1.0 (spec 02 §9.3): parent selection
  // should look again (spec 03 §3).
  virtual void onLinkMeasured(const identity::NodeAddr& /*peer*/) {}
};

}  // namespace fips::router::link
