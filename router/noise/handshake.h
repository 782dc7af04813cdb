// SPDX-License-Identifier: MIT
// The FIPS handshakes: Noise IK (FMP link layer) and Noise XK (FSP session
// layer) on secp256k1, byte-compatible with the reference, with the 8-byte
// startup epoch as payload and every message size checked exactly. Runs in
// fips-router; readMessage() takes untrusted bytes from peers.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "lib/crypto/rng.h"
#include "lib/crypto/secp256k1-keys.h"
#include "router/noise/dh-suites.h"
#include "router/noise/handshake-state.h"

namespace fips::router::noise {

// 8 random bytes per process start, sent encrypted for restart detection.
using Epoch = std::array<uint8_t, 8>;

// Exact Noise message sizes in bytes (spec 01 §6.3, §6.4; without FMP/FSP framing).
constexpr size_t IK_MSG1_SIZE = 106;  // e 33 ‖ {s} 49 ‖ {epoch} 24
constexpr size_t IK_MSG2_SIZE = 57;   // e 33 ‖ {epoch} 24
constexpr size_t XK_MSG1_SIZE = 33;   // e 33 (no payload, no tag)
constexpr size_t XK_MSG2_SIZE = 57;   // e 33 ‖ {epoch} 24
constexpr size_t XK_MSG3_SIZE = 73;   // {s} 49 ‖ {epoch} 24

enum class FipsPattern : uint8_t { IK, XK };

// One FIPS handshake, either role. Messages alternate starting with the
// initiator; nextMessageSize() says how big the next one is. Failures leave
// the state unchanged (a forged message does not poison the handshake).
class Handshake {
 public:
  // Initiator: knows the responder's static key (from an npub, possibly only
  // x-only lifted to even Y: parity does not matter, spec 01 §1).
  static Handshake initiator(FipsPattern pattern, const Secp256k1Suite& suite,
                             crypto::SecretKey localStatic, crypto::PublicKey remoteStatic,
                             const Epoch& localEpoch);
  static Handshake responder(FipsPattern pattern, const Secp256k1Suite& suite,
                             crypto::SecretKey localStatic, const Epoch& localEpoch);

  // Size of the next message (either direction); 0 once complete.
  size_t nextMessageSize() const;
  bool isMyTurn() const { return state_.isMyTurn(); }
  bool isComplete() const { return state_.isComplete(); }
  Role role() const { return state_.role(); }
  FipsPattern pattern() const { return pattern_; }

  // Writes our next message; out.size() must equal nextMessageSize().
  [[nodiscard]] HandshakeStatus writeMessage(std::span<uint8_t> out, crypto::Rng& rng);
  // Reads the peer's next message; BAD_LENGTH unless exactly nextMessageSize().
  [[nodiscard]] HandshakeStatus readMessage(std::span<const uint8_t> message);

  // Peer static key: initiator always; responder after IK msg1 / XK msg3.
  const crypto::PublicKey* remoteStatic() const { return state_.remoteStatic(); }
  // Peer epoch, once the message carrying it has been read.
  const std::optional<Epoch>& remoteEpoch() const { return remoteEpoch_; }
  const crypto::Sha256Digest& handshakeHash() const { return state_.handshakeHash(); }
  const SymmetricState& symmetric() const { return state_.symmetric(); }
  // Transport keys once complete (initiator sends with k1).
  std::optional<TransportKeys> split() const { return state_.split(); }

 private:
  Handshake(FipsPattern pattern, HandshakeState<Secp256k1Suite> state, const Epoch& epoch)
      : pattern_(pattern), state_(std::move(state)), localEpoch_(epoch) {}
  bool nextCarriesEpoch() const;

  FipsPattern pattern_;
  HandshakeState<Secp256k1Suite> state_;
  Epoch localEpoch_;
  std::optional<Epoch> remoteEpoch_;
};

}  // namespace fips::router::noise
