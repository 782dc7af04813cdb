// SPDX-License-Identifier: MIT
// Sans-IO FSP session rekey for one established end-to-end session (spec 01
// §8.2, 04 §2.4): the jittered trigger, a fresh Noise XK on the running
// session, the dual-initiation tie-break, msg3 retention and resend, the
// 2000 ms initiator cutover and promotion by trial decryption. FSP framing
// (SessionSetup/Ack/Msg3, the 12-byte header) stays with the FSP layer. Runs
// in fips-router; msg1/msg2/msg3 and frames come from remote nodes, untrusted.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "lib/crypto/rng.h"
#include "router/noise/handshake.h"
#include "router/noise/key-epochs.h"
#include "router/noise/rekey-policy.h"

namespace fips::router::noise {

// Trigger thresholds plus node.rate_limit.handshake_* and the session idle
// timeout, which bounds how long a completed rekey outranks a new msg1.
struct SessionRekeyConfig {
  RekeyConfig rekey;
  uint64_t resendIntervalMs = 1000;  // first msg3 resend; doubles per resend
  uint32_t maxResends = 5;           // msg3 resends before the cycle is abandoned
  uint64_t handshakeTimeoutMs = 30'000;
  uint64_t idleTimeoutMs = 90'000;  // node.session.idle_timeout_secs
};

// Who we are and who the session's peer is; suite and key must outlive the
// object. The peer key may be an even-Y lift of an npub: only x is compared.
struct SessionPeerIdentity {
  const Secp256k1Suite* suite;
  const crypto::SecretKey* local;
  crypto::PublicKey remote;
  NodeAddrBytes localAddr;
  NodeAddrBytes remoteAddr;
  Epoch epoch;  // ours, sent in msg2/msg3 (the peer's is not checked, spec 04 §2.4)
};

using XkMsg1 = std::array<uint8_t, XK_MSG1_SIZE>;
using XkMsg2 = std::array<uint8_t, XK_MSG2_SIZE>;
using XkMsg3 = std::array<uint8_t, XK_MSG3_SIZE>;

// What one tick asks of the caller: at most one handshake message to frame
// and send (SessionSetup for msg1, SessionMsg3 for msg3), and whether the
// initiator cut over (reset the session timestamp base and session MMP).
struct SessionRekeyTick {
  std::optional<XkMsg1> msg1;
  std::optional<XkMsg3> msg3;
  bool cutOver = false;
};

// Counters of dropped or abandoned rekey input (fipsctl stats).
struct SessionRekeyStats {
  uint64_t tieBreakDrops = 0;    // peer msg1 while we rekey and keep the initiator role
  uint64_t yielded = 0;          // our handshake given up for the peer's msg1
  uint64_t pendingDrops = 0;     // peer msg1 while a fresh pending awaits cutover
  uint64_t badMessages = 0;      // a handshake message that failed to parse/authenticate
  uint64_t unexpected = 0;       // msg2/msg3 with no matching handshake (late duplicates)
  uint64_t keyMismatches = 0;    // msg3 from a static key other than the session's peer
  uint64_t expired = 0;          // handshakes that timed out without completing
  uint64_t abandoned = 0;        // cycles whose msg3 was never confirmed
  uint64_t pendingReplaced = 0;  // a newer msg3 superseded an unpromoted pending
  uint64_t reconfirms = 0;       // rekeys started by reconfirm() (an unanswering peer)
};

class SessionRekey {
 public:
  // initial: the transport keys of the established session; jitterSecs: this
  // session's first rekey jitter (drawRekeyJitter), redrawn at every cutover.
  SessionRekey(const SessionPeerIdentity& id, const SessionRekeyConfig& cfg,
               const TransportKeys& initial, uint64_t nowMs, int64_t jitterSecs);
  SessionRekey(const SessionRekey&) = delete;
  SessionRekey& operator=(const SessionRekey&) = delete;

  // Per tick (ms clock): msg3 resend or abandon, initiator cutover after
  // SESSION_CUTOVER_DELAY_MS, drain expiry, handshake expiry, the trigger.
  SessionRekeyTick tick(uint64_t nowMs, crypto::Rng& rng);
  // Starts a rekey now, outside the timer: the peer has stopped answering
  // our frames, perhaps because it restarted and lost the keys (#25). A
  // restarted peer answers the msg1 as a new session, so the keys are
  // re-established; a live one treats it as an ordinary rekey. Replaces a
  // handshake of ours still unanswered. Its msg2 cuts over at once (no
  // SESSION_CUTOVER_DELAY_MS: the peer reads nothing we seal now anyway).
  // Returns the msg1 to send in a
  // SessionSetup, or nullopt while the peer's handshake, pending keys or a
  // retained msg3 show a cycle already under way. The caller rate limits.
  std::optional<XkMsg1> reconfirm(uint64_t nowMs, crypto::Rng& rng);
  // A SessionSetup's msg1 for this established session. Returns the msg2 to
  // send in a SessionAck, or nullopt if the msg1 is dropped (counted).
  std::optional<XkMsg2> onMsg1(std::span<const uint8_t> msg1, uint64_t nowMs, crypto::Rng& rng);
  // A SessionAck's msg2 for our rekey. Returns the msg3 to send (also kept
  // for resend by tick()), or nullopt if dropped; a msg2 that fails to
  // authenticate leaves our handshake waiting (unlike the reference).
  std::optional<XkMsg3> onMsg2(std::span<const uint8_t> msg2, uint64_t nowMs, crypto::Rng& rng);
  // A SessionMsg3's msg3 for the handshake the peer armed; true if it
  // installed pending keys. A static key other than the peer's is rejected.
  bool onMsg3(std::span<const uint8_t> msg3, uint64_t nowMs);

  // Data path: seal with current keys (put keys().kBit() in the FSP flags first).
  KeyEpochs& keys() { return keys_; }
  // Data path: open with the session trial order (key-epochs.h). A success on
  // pending promotes it; result.promoted tells the caller to reset the
  // session timestamp base and MMP as after a tick cutover.
  EpochOpenResult openFrame(bool kOnWire, std::span<const uint8_t> header, size_t counterOffset,
                            std::span<const uint8_t> ciphertext, std::span<uint8_t> out,
                            uint64_t nowMs);

  // Base of the FSP inner timestamp; reset at every cutover.
  uint64_t sessionStartMs() const { return sessionStartMs_; }
  // A handshake is armed (ours, or one a peer msg1 started).
  bool rekeyInProgress() const { return handshake_.has_value(); }
  bool isRekeyInitiator() const { return handshake_.has_value() && handshakeIsOurs_; }
  // Our msg3 is retained: the peer is not yet seen on the new keys.
  bool awaitingConfirmation() const { return retainedMsg3_.has_value(); }
  uint64_t completedRekeys() const { return completedRekeys_; }
  // The K bit of the current keys; previous keys are still kept (draining).
  bool kBit() const { return keys_.kBit(); }
  bool draining() const { return keys_.hasPrevious(); }
  const SessionRekeyStats& stats() const { return stats_; }

 private:
  bool cutoverDue(uint64_t nowMs) const;
  bool handshakeExpired(uint64_t nowMs) const;
  bool pendingOutranks(uint64_t nowMs) const;
  void resendMsg3(uint64_t nowMs, SessionRekeyTick& out);
  std::optional<XkMsg1> startRekey(uint64_t nowMs, crypto::Rng& rng);
  void promoted(uint64_t nowMs);
  void abandonRekey();

  SessionPeerIdentity id_;
  SessionRekeyConfig cfg_;
  KeyEpochs keys_;
  uint64_t sessionStartMs_;
  int64_t jitterSecs_;
  bool redrawJitter_ = false;
  uint64_t completedRekeys_ = 0;
  SessionRekeyStats stats_;
  // The armed handshake: ours (msg1 sent) or the peer's (msg2 sent).
  std::optional<Handshake> handshake_;
  bool handshakeIsOurs_ = false;
  bool reconfirming_ = false;  // our handshake came from reconfirm()
  uint64_t handshakeStartMs_ = 0;
  // Last peer msg1 we answered: dampening and responder handshake expiry.
  std::optional<uint64_t> lastPeerRekeyMs_;
  // Pending keys: ours (cut over by timer) or the peer's (promoted on receive).
  bool pendingIsOurs_ = false;
  uint64_t pendingSinceMs_ = 0;
  // Our msg3, resent until a peer frame authenticates on the new keys.
  std::optional<XkMsg3> retainedMsg3_;
  uint64_t nextMsg3ResendMs_ = 0;
  uint32_t msg3Resends_ = 0;
  // Drain of the previous keys: DRAIN_WINDOW_MS after the later of the
  // cutover and the last frame that still used them.
  uint64_t drainAnchorMs_ = 0;
};

}  // namespace fips::router::noise
