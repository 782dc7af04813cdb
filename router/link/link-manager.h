// SPDX-License-Identifier: MIT
// LinkManager: the sans-IO FMP link engine of one node (spec 02 §3-§5, §8,
// §10; spec 01 §6.3, §8.1). It dials static peers, answers handshakes, keeps
// links alive with heartbeats, reaps dead ones, rekeys them without loss and
// carries link messages. Runs in fips-router; every datagram handed to
// onDatagram() is untrusted and is either consumed or dropped and counted.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/node-addr.h"
#include "router/fmp/fmp-constants.h"
#include "router/fmp/handshake-frame.h"
#include "router/link/active-link.h"
#include "router/link/drop-reason.h"
#include "router/link/handshake-admission.h"
#include "router/link/handshake-driver.h"
#include "router/link/index-table.h"
#include "router/link/link-config.h"
#include "router/link/link-io.h"
#include "router/link/retry-schedule.h"
#include "router/link/token-bucket.h"
#include "router/link/transport-addr.h"
#include "router/noise/dh-suites.h"
#include "router/noise/handshake.h"

namespace fips::router::link {

// What the engine has done since it started.
struct LinkCounters {
  DropCounters drops{};           // per DropReason
  uint64_t handshakesOut = 0;     // msg1s we initiated (first sends, not resends)
  uint64_t handshakesIn = 0;      // msg1s we answered with a new link
  uint64_t duplicateMsg1 = 0;     // msg1s answered by resending a stored msg2
  uint64_t msg1FrameResends = 0;  // msg1s resent at once for a peer frame on a handshake index
  uint64_t linksUp = 0;
  uint64_t linksDown = 0;
  // msg1 admission of non-peers (handshake-admission.h): sources tracked now,
  // sources evicted from the full table, msg1s admitted from the reserve.
  uint64_t admissionSources = 0;
  uint64_t admissionEvictions = 0;
  uint64_t admissionReserveAdmits = 0;

  uint64_t dropped(DropReason reason) const { return drops[static_cast<size_t>(reason)]; }
  uint64_t droppedTotal() const;
};

// One outbound handshake in progress (fipsctl show connections).
struct HandshakeInfo {
  identity::NodeAddr peer;
  std::optional<crypto::PublicKey> key;  // the static key we expect in msg2
  TransportAddr to;
  uint32_t ourIndex = 0;
  uint64_t startMs = 0;  // monotonic ms msg1 was first sent
  uint32_t resends = 0;  // msg1 resends so far
};

// Redial state of one configured or ephemeral peer (fipsctl show routing retries[]).
struct RetryInfo {
  identity::NodeAddr peer;
  uint32_t retryCount = 0;
  std::optional<uint64_t> dueMs;  // monotonic ms of the next dial; nullopt: none scheduled
  bool autoReconnect = true;      // false for ephemeral (fipsctl connect) peers
};

// Where a dial to a peer stands (fipsctl connect/disconnect of a peer that
// is not up yet).
enum class DialState {
  NONE,       // no dial: the peer is up, or unknown to the engine
  HANDSHAKE,  // our msg1 is out and its msg2 awaited
  WAITING,    // a configured peer waiting for its next dial (retry backoff)
};

class LinkManager {
 public:
  // ctx, config, clock, rng and io are borrowed and must outlive the
  // manager. epoch is this process's 8 random startup bytes (restart
  // detection, spec 02 §5).
  LinkManager(const crypto::Secp256k1Context& ctx, crypto::SecretKey localKey, noise::Epoch epoch,
              const LinkConfig& config, const Clock& clock, crypto::Rng& rng, LinkIo& io);
  LinkManager(const crypto::Secp256k1Context&, crypto::SecretKey, noise::Epoch, LinkConfig&&,
              const Clock&, crypto::Rng&, LinkIo&) = delete;  // the config must outlive it
  LinkManager(const LinkManager&) = delete;
  LinkManager& operator=(const LinkManager&) = delete;

  // Adds an auto-connect peer and dials it at once; after a failed handshake
  // or any loss of the link it redials with retry backoff (base × 2^n, capped).
  // Addresses in fd00::/8 are refused (no mesh over the mesh). False if the
  // key is ours, already added, not on the curve, or no address is usable.
  bool addStaticPeer(const crypto::PublicKey& key, std::vector<TransportAddr> addrs);
  // Sets the addresses of a static peer, adding (and dialing) it if new; a
  // known peer that is up keeps its link, one that is down (and not parked)
  // is dialed now at the new list's first address, unless a handshake to an
  // address still in the list is under way. For addresses found at connect
  // time (host names). False as addStaticPeer, or for an empty or fd00::/8
  // list.
  bool setStaticPeerAddrs(const crypto::PublicKey& key, std::vector<TransportAddr> addrs);
  // Adds a peer to dial once now (fipsctl connect, spec 08 §1.1): as
  // addStaticPeer, but a handshake timeout or any loss of the link forgets
  // it instead of redialing. A configured peer parked by removePeer is
  // dialed at `addr` now and stays configured (redialed after a later loss).
  bool addEphemeralPeer(const crypto::PublicKey& key, const TransportAddr& addr);
  // fipsctl disconnect: cancels the peer's dial and retries and, if the link
  // is up, sends Disconnect(ConfigurationChange) and takes it down. An
  // ephemeral peer is forgotten; a static (configured) one is parked: not
  // dialed again until its link comes up once more (the peer dials us, or
  // addEphemeralPeer/addStaticPeer) and is then lost, as the reference's
  // disconnect clears only the pending retry. False if unknown.
  bool removePeer(const identity::NodeAddr& peer);
  // Whether a dial to `peer` is under way (NONE while its link is up).
  DialState dialState(const identity::NodeAddr& peer) const;
  // Whether a link to `peer` is up (authenticated, spec 02 §5).
  bool isLinked(const identity::NodeAddr& peer) const { return peers_.contains(peer); }

  // The one receive entry point: prefix and payload_len checks, then msg1,
  // msg2 or an established frame dispatched by (transport id, receiver_idx).
  void onDatagram(const TransportAddr& from, std::span<const uint8_t> packet);
  // Seals type ‖ body for an active peer and sends it; false if the peer is
  // not active or the frame cannot be sealed.
  bool sendLinkMessage(const identity::NodeAddr& peer, fmp::LinkMessageType type,
                       std::span<const uint8_t> body);
  // Timers (call about once a second): msg1 resends and timeouts, redials,
  // heartbeats, dead links, rekey triggers/cutover, drain expiry.
  void tick();
  // Sends Disconnect(Shutdown) to every active peer, takes all links down and
  // stops dialing. The manager then ignores tick() and datagrams.
  void shutdown();

  std::vector<PeerInfo> peers() const;
  // Link cost (spec 02 §9.3) of every active link with an RTT measurement;
  // unmeasured links are left out (spec 03 §3 cold start).
  std::map<identity::NodeAddr, double> measuredLinkCosts() const;
  // Outbound handshakes in progress.
  size_t pendingHandshakes() const { return outbound_.size(); }
  std::vector<HandshakeInfo> handshakes() const;
  // Peers without an active link that have a retry history or a dial due.
  std::vector<RetryInfo> retries() const;
  const LinkCounters& counters() const { return counters_; }
  const identity::NodeAddr& localAddr() const { return localAddr_; }
  // Our key pair and the suite over ctx, for the mesh components that sign
  // or run handshakes with the same identity (valid as long as the manager).
  const crypto::SecretKey& localKey() const { return localKey_; }
  const noise::Secp256k1Suite& suite() const { return suite_; }

 private:
  struct StaticPeer {
    crypto::PublicKey key;
    std::vector<TransportAddr> addrs;
    RetrySchedule retry;
    size_t nextAddr = 0;
    bool redial = true;   // false for ephemeral peers
    bool parked = false;  // disconnected by the operator: no dial until the link is up again
  };

  bool addPeer(const crypto::PublicKey& key, std::vector<TransportAddr> addrs, bool redial);

  void drop(DropReason reason) { ++counters_.drops[static_cast<size_t>(reason)]; }
  bool atMaxLinks() const;
  void dial(const identity::NodeAddr& peer, StaticPeer& config, uint64_t nowMs);
  // Sends msg1 to `to` (one of config's addresses, or a connect's).
  void dialAt(const identity::NodeAddr& peer, StaticPeer& config, const TransportAddr& to,
              uint64_t nowMs);
  // addPeer for a peer parked by removePeer: unparks it and dials now.
  bool unpark(const identity::NodeAddr& peer, StaticPeer& config, std::vector<TransportAddr> addrs,
              bool redial, uint64_t nowMs);
  std::unique_ptr<ActiveLink> makeLink(const crypto::PublicKey& remote, const noise::Epoch& epoch,
                                       const noise::TransportKeys& keys, const TransportAddr& from,
                                       bool outbound, uint32_t ourIndex, uint32_t theirIndex,
                                       uint64_t nowMs);
  void promote(std::unique_ptr<ActiveLink> link);
  void takeDown(const identity::NodeAddr& peer, LinkDownReason reason);
  void sendDisconnect(ActiveLink& link, fmp::DisconnectReason reason);
  void cancelOutbound(const identity::NodeAddr& peer);
  // Restart candidates (link-manager-restart.cpp).
  void holdCandidate(const TransportAddr& from, const fmp::Msg1Frame& frame, InboundHello& hello,
                     uint64_t nowMs);
  bool resendCandidateMsg2(const identity::NodeAddr& peer, const noise::Epoch& epoch,
                           const TransportAddr& from);
  void confirmCandidate(const identity::NodeAddr& peer, const fmp::EstablishedFrame& frame,
                        const TransportAddr& from);
  void expireCandidates(uint64_t nowMs);
  bool fromEstablishedPeer(const TransportAddr& from) const;

  // Receive path (link-manager-rx.cpp).
  void handleFrame(const TransportAddr& from, std::span<const uint8_t> packet);
  // A frame on the index of our msg1 still awaiting msg2: the peer is up, so
  // its msg2 was lost. Resends msg1 at once (rate limited, capped) so its
  // duplicate-msg1 answer brings the msg2 back; the frame is dropped.
  void onFrameForHandshake(const identity::NodeAddr& peer);
  // The opened frame's inner header: MMP accounting on the peer's link, then
  // Heartbeat/Disconnect/MMP reports consumed here and the rest to LinkIo.
  void dispatchMessage(const identity::NodeAddr& peer, const fmp::EstablishedFrame& frame,
                       std::span<const uint8_t> plaintext);
  void onReport(ActiveLink& link, fmp::LinkMessageType type, std::span<const uint8_t> body);
  // Handshakes (link-manager-handshake.cpp).
  void handleMsg1(const TransportAddr& from, std::span<const uint8_t> packet);
  // Admission of a msg1 (handshake-admission.h); a refusal is counted
  // under its reason.
  bool admit(const TransportAddr& from, uint64_t nowMs);
  void acceptInbound(const TransportAddr& from, const fmp::Msg1Frame& frame, InboundHello& hello,
                     uint64_t nowMs);
  // Allocates an index, sends msg2 and builds the (not yet promoted) link;
  // nullptr, counted, on failure.
  std::unique_ptr<ActiveLink> answerInbound(const TransportAddr& from, const fmp::Msg1Frame& frame,
                                            InboundHello& hello, uint64_t nowMs);
  void handleMsg2(const TransportAddr& from, std::span<const uint8_t> packet);
  void completeOutbound(OutboundHandshake done, uint32_t theirIndex, const TransportAddr& from,
                        uint64_t nowMs);
  // Timers (link-manager-tick.cpp).
  void tickOutbound(uint64_t nowMs);
  void tickPeers(uint64_t nowMs);
  void tickRetries(uint64_t nowMs);

  noise::Secp256k1Suite suite_;
  crypto::SecretKey localKey_;
  LocalIdentity local_;
  identity::NodeAddr localAddr_;
  const LinkConfig& config_;
  const Clock& clock_;
  crypto::Rng& rng_;
  LinkIo& io_;
  IndexTable indices_;
  HandshakeAdmission admission_;  // every msg1, before any crypto
  TokenBucket establishedBucket_;
  std::map<identity::NodeAddr, StaticPeer> statics_;
  std::map<identity::NodeAddr, OutboundHandshake> outbound_;
  std::map<identity::NodeAddr, std::unique_ptr<ActiveLink>> peers_;
  // A msg1 carrying a new epoch for an active peer is answered, but the old
  // link stays until the new session proves itself with an authenticated
  // frame: a replayed msg1 from an earlier run cannot tear a link down.
  struct Candidate {
    std::unique_ptr<ActiveLink> link;
    noise::Epoch epoch{};
    uint64_t expiresMs = 0;
  };
  std::map<identity::NodeAddr, Candidate> candidates_;
  std::vector<uint8_t> plaintext_;  // receive scratch, one frame at a time
  LinkCounters counters_;
  bool shutdown_ = false;
};

}  // namespace fips::router::link
