// SPDX-License-Identifier: MIT
// One established FMP link (spec 02 §3-§5, §8; spec 01 §8.1): its session with
// hitless rekey, the indices it owns in the dispatch table (current, rekey in
// flight, pending, draining), the session clock for inner timestamps, and the
// liveness timers. Runs in fips-router; frames and rekey messages handed in
// come from the network and are untrusted (failures are returned, never thrown).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "lib/crypto/secp256k1-keys.h"
#include "lib/identity/node-addr.h"
#include "router/fmp/established-frame.h"
#include "router/fmp/handshake-frame.h"
#include "router/link/index-table.h"
#include "router/link/link-config.h"
#include "router/link/link-io.h"
#include "router/link/link-mmp.h"
#include "router/link/transport-addr.h"
#include "router/noise/link-rekey.h"

namespace fips::router::link {

// Everything needed to build the session of a newly established link.
struct ActiveLinkSetup {
  noise::LinkPeerIdentity id;  // suite/key pointers must outlive the link
  noise::LinkRekeyConfig rekeyConfig;
  int64_t jitterSecs = 0;
  crypto::PublicKey key;    // the peer's identity key
  identity::NodeAddr addr;  // the peer's NodeAddr
  TransportAddr current;    // source of the handshake; its transport binds the indices
  bool outbound = false;
  uint32_t ourIndex = 0;  // already allocated in the IndexTable
  uint32_t theirIndex = 0;
  MmpMode mmpMode = MmpMode::FULL;
  size_t mmpOwdWindow = 32;
};

// How long a link whose peer's msg1 we just answered (a rekey, or a fresh
// dial from a peer that lost its link to us) is kept from being reaped as
// dead: the peer's first frame on the answered session needs a round trip,
// a lost msg2 a resend (1 s) more. Without it a link silent through an
// outage could be reaped between our msg2 and that frame, leaving the peer
// up alone (issue #22).
constexpr uint64_t ANSWERED_MSG1_GRACE_MS = 5'000;

class ActiveLink {
 public:
  // Binds ourIndex (SESSION) in table, which must outlive the link.
  ActiveLink(ActiveLinkSetup setup, const noise::TransportKeys& keys, IndexTable& table,
             uint64_t nowMs);
  ActiveLink(const ActiveLink&) = delete;
  ActiveLink& operator=(const ActiveLink&) = delete;

  // Frees every index the link holds. Call once, before destruction.
  void releaseIndices();
  // Cross-connection swap (spec 02 §5): adopt the session of our outbound
  // handshake and its indices, releasing the old ones.
  void replaceSession(const noise::TransportKeys& keys, uint32_t ourIndex, uint32_t theirIndex,
                      uint64_t nowMs);

  // Seals one link message (msg_type ‖ body) as an established frame with the
  // inner timestamp (ms since this session's start); nullopt if the counter
  // space is exhausted or the message exceeds 65535 - 5 bytes.
  std::optional<std::vector<uint8_t>> seal(std::span<const uint8_t> message, uint64_t nowMs);
  // Opens a frame dispatched to this link (trial decryption, responder
  // cutover); plaintext goes to out (frame payloadLen bytes). On success
  // records liveness and the sender's address (roaming, spec 02 §3.3 step 5).
  noise::OpenStatus open(const fmp::EstablishedFrame& frame, const TransportAddr& from,
                         std::span<uint8_t> out, uint64_t nowMs);

  // An authenticated frame's inner header was read: MMP receive accounting
  // (counter, the sender's timestamp, whole packet bytes, CE flag). A frame
  // that opened under the draining keys of the previous session only counts
  // as traffic: its counter belongs to the old sequence (a departure: the
  // reference feeds it to the reset receiver, whose highest counter then
  // stays above the new session's counters and hides loss until they pass it).
  void onFrameAuthenticated(const fmp::EstablishedHeader& header, uint32_t senderTimestampMs,
                            uint64_t packetBytes, uint64_t nowMs);
  // Per tick, before heartbeats: seals and sends the MMP reports due now
  // (spec 02 §9.3).
  void sendReports(uint64_t nowMs, LinkIo& io);
  // A ReceiverReport from the peer; true if it gave the link its first SRTT.
  bool onReceiverReport(const fmp::ReceiverReport& rr, uint64_t nowMs);
  void onSenderReport(const fmp::SenderReport& sr) { mmp_.onSenderReport(sr); }
  const LinkMmp& mmp() const { return mmp_; }

  // Per tick: rekey trigger/resend/abandon, initiator cutover, drain expiry.
  void tick(uint64_t nowMs, crypto::Rng& rng, LinkIo& io);
  // A same-epoch msg1 from this peer that qualifies as a rekey (spec 01 §8.1).
  // Sends msg2 (or resends it for a duplicate); false if the msg1 is dropped.
  bool onRekeyMsg1(const fmp::Msg1Frame& msg1, const TransportAddr& from, uint64_t nowMs,
                   crypto::Rng& rng, LinkIo& io);
  // The peer's msg2 to our rekey msg1; false if it does not complete it.
  // A completing msg2 answers our fresh ephemeral key, so it counts as
  // liveness (as an authenticated frame for dead()).
  bool onRekeyMsg2(const fmp::Msg2Frame& msg2, uint64_t nowMs);

  // No authenticated frame for timeoutMs (since up if none), no rekey in
  // flight, and no msg1 answered in the last ANSWERED_MSG1_GRACE_MS.
  bool dead(uint64_t nowMs, uint64_t timeoutMs) const;
  bool heartbeatDue(uint64_t nowMs, uint64_t intervalMs) const {
    return !lastHeartbeatMs_ || nowMs - *lastHeartbeatMs_ >= intervalMs;
  }
  void markHeartbeatSent(uint64_t nowMs) { lastHeartbeatMs_ = nowMs; }
  // Session age for the responder's rekey-vs-duplicate rule (spec 02 §5 step 4).
  uint64_t sessionAgeMs(uint64_t nowMs) const { return nowMs - sessionStartMs_; }
  // The stored framed msg2 of the handshake that built this link (responder), if any.
  const std::optional<std::array<uint8_t, fmp::MSG2_SIZE>>& handshakeMsg2() const {
    return handshakeMsg2_;
  }
  void setHandshakeMsg2(const std::array<uint8_t, fmp::MSG2_SIZE>& msg2) { handshakeMsg2_ = msg2; }

  const noise::Epoch& remoteEpoch() const { return setup_.id.remoteEpoch; }
  const identity::NodeAddr& addr() const { return setup_.addr; }
  const TransportAddr& current() const { return current_; }
  bool rekeyInProgress() const { return session_->rekeyInProgress(); }
  PeerInfo info() const;

 private:
  struct IndexPair {
    uint32_t our;
    uint32_t their;
  };
  void bindSession(uint32_t index);
  void release(std::optional<uint32_t>& index);
  void syncIndices(bool kBefore, uint64_t nowMs);

  ActiveLinkSetup setup_;
  IndexTable& table_;
  std::unique_ptr<noise::LinkRekey> session_;
  TransportAddr current_;
  uint32_t ourIndex_;
  uint32_t theirIndex_;
  std::optional<uint32_t> rekeyOurIndex_;  // our rekey msg1 in flight (REKEY role)
  std::optional<IndexPair> pending_;       // completed rekey not yet cut over
  std::optional<uint32_t> draining_;       // previous our index, until drainUntilMs_
  uint64_t drainUntilMs_ = 0;
  uint64_t upSinceMs_;
  uint64_t sessionStartMs_;
  std::optional<uint64_t> lastRecvMs_;
  std::optional<uint64_t> lastHeartbeatMs_;
  uint64_t rekeys_ = 0;
  std::optional<std::array<uint8_t, fmp::MSG2_SIZE>> handshakeMsg2_;
  // The last rekey msg1 we answered and our framed msg2, for duplicates.
  std::optional<std::array<uint8_t, fmp::NOISE_MSG1_SIZE>> answeredMsg1_;
  std::array<uint8_t, fmp::MSG2_SIZE> answeredMsg2_{};
  std::optional<uint64_t> answeredAtMs_;  // when we last answered a rekey msg1 with a new session
  LinkMmp mmp_;
  bool lastOpenedDraining_ = false;  // the last frame open() accepted used the previous keys
};

}  // namespace fips::router::link
