// SPDX-License-Identifier: MIT
// Sans-IO FMP link rekey for one established peer (spec 01 §8.1, 02 §3.3): the
// timer/counter trigger, a fresh Noise IK over the existing link with msg1
// resends, the responder rules (minimum age, duplicates, stale pending,
// dual-initiation tie-break, dampening), initiator cutover on the next tick
// and responder promotion by trial decryption. Index allocation and FMP
// framing stay with the FMP layer. Runs in fips-router; msg1/msg2 and frames
// are untrusted.
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

// Retransmission and timeout knobs (node.rate_limit.handshake_*).
struct LinkRekeyConfig {
  RekeyConfig rekey;
  uint64_t resendIntervalMs = 1000;
  uint32_t maxResends = 5;
  uint64_t handshakeTimeoutMs = 30'000;
};

// Who we are and who the peer is; suite and key must outlive the object.
struct LinkPeerIdentity {
  const Secp256k1Suite* suite;
  const crypto::SecretKey* local;
  crypto::PublicKey remote;
  NodeAddrBytes localAddr;
  NodeAddrBytes remoteAddr;
  Epoch epoch;        // ours
  Epoch remoteEpoch;  // the peer's, learned when the link came up
};

using RekeyMsg1 = std::array<uint8_t, IK_MSG1_SIZE>;
using RekeyMsg2 = std::array<uint8_t, IK_MSG2_SIZE>;

class LinkRekey {
 public:
  LinkRekey(const LinkPeerIdentity& id, const LinkRekeyConfig& cfg, const TransportKeys& initial,
            uint64_t nowMs, int64_t jitterSecs);
  LinkRekey(const LinkRekey&) = delete;
  LinkRekey& operator=(const LinkRekey&) = delete;

  // Per tick: initiator cutover, drain expiry, msg1 resend/abandon, trigger.
  // Returns a msg1 to send on the link, if any.
  std::optional<RekeyMsg1> tick(uint64_t nowMs, crypto::Rng& rng);
  // A msg1 from this (already active, same-epoch) peer. Returns the msg2 to
  // send, or nullopt if the msg1 is dropped.
  std::optional<RekeyMsg2> onMsg1(std::span<const uint8_t> msg1, uint64_t nowMs, crypto::Rng& rng);
  // The peer's msg2 to our rekey msg1; true if it completed our handshake.
  bool onMsg2(std::span<const uint8_t> msg2);

  // Data path: seal with current keys (put keys().kBit() in the flags first).
  KeyEpochs& keys() { return keys_; }
  // Data path: open with trial decryption; resets the session clock when the
  // frame promoted the pending keys (responder cutover).
  EpochOpenResult openFrame(bool kOnWire, std::span<const uint8_t> header, size_t counterOffset,
                            std::span<const uint8_t> ciphertext, std::span<uint8_t> out,
                            uint64_t nowMs);

  bool rekeyInProgress() const { return outbound_.has_value(); }
  uint64_t completedRekeys() const { return completedRekeys_; }

 private:
  void startSession(uint64_t nowMs);
  bool acceptPeerMsg1(std::span<const uint8_t> msg1, uint64_t nowMs);

  LinkPeerIdentity id_;
  LinkRekeyConfig cfg_;
  KeyEpochs keys_;
  uint64_t sessionStartMs_;
  int64_t jitterSecs_;
  bool redrawJitter_ = false;
  uint64_t dampenedUntilMs_ = 0;
  uint64_t completedRekeys_ = 0;
  // Our rekey in flight.
  std::optional<Handshake> outbound_;
  RekeyMsg1 outboundMsg1_{};
  uint64_t outboundStartMs_ = 0;
  uint64_t nextResendMs_ = 0;
  uint32_t resends_ = 0;
  // Pending keys: ours (cut over on tick) or the peer's (promoted on receive).
  bool pendingIsOurs_ = false;
  uint64_t pendingSinceMs_ = 0;
  std::optional<RekeyMsg1> answeredMsg1_;
  RekeyMsg2 answeredMsg2_{};
};

}  // namespace fips::router::noise
