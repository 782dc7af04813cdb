// SPDX-License-Identifier: MIT
// The generic Noise HandshakeState for patterns with a pre-message responder
// static (IK, XK), parametrised by a DH suite and by the FIPS departure
// switches in NoiseProtocol. Runs in fips-router; readMessage() parses
// handshake bytes from the network (untrusted) and never throws.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "lib/crypto/rng.h"
#include "lib/crypto/secret.h"
#include "lib/crypto/sha256.h"
#include "router/noise/pattern.h"
#include "router/noise/symmetric-state.h"

namespace fips::router::noise {

// Why a handshake step failed. Every failure leaves the state as it was
// before the call, so a forged message cannot poison a handshake.
enum class HandshakeStatus : uint8_t {
  OK,
  BAD_LENGTH,          // message size is not what the pattern requires
  BAD_POINT,           // a public key does not parse as a valid point
  DECRYPT_FAILED,      // an AEAD tag did not verify
  UNEXPECTED_MESSAGE,  // not our turn, wrong role, or already complete
  CRYPTO_FAILURE,      // rng or OpenSSL failure on our side
};

enum class Role : uint8_t { INITIATOR, RESPONDER };

// Keys for the transport phase. Initiator sends with the first Split() output
// and receives with the second; the responder the other way round (spec 01
// §6.3, pitfall 14).
struct TransportKeys {
  crypto::Secret<32> send;
  crypto::Secret<32> recv;
  crypto::Sha256Digest handshakeHash{};
};

// Noise spec §5.3 for IK/XK-shaped patterns. Not copyable (holds keys).
template <typename Suite>
class HandshakeState {
 public:
  using Public = typename Suite::Public;
  using KeyPair = typename Suite::KeyPair;

  // remoteStatic is the responder's static for the initiator (the "<- s"
  // pre-message) and must be absent for the responder; a mismatch is a
  // programming error (std::invalid_argument). The suite is copied; what it
  // borrows must outlive this object.
  HandshakeState(const Suite& suite, const NoiseProtocol& protocol, Role role, KeyPair localStatic,
                 std::optional<Public> remoteStatic, std::span<const uint8_t> prologue = {});
  HandshakeState(const HandshakeState&) = delete;
  HandshakeState& operator=(const HandshakeState&) = delete;
  HandshakeState(HandshakeState&&) noexcept = default;
  HandshakeState& operator=(HandshakeState&&) noexcept = default;
  ~HandshakeState() = default;

  bool isComplete() const { return next_ >= protocol_->pattern->messages.size(); }
  // True when the next message is ours to write.
  bool isMyTurn() const;
  // True when the next message ends with an (encrypted) payload.
  bool nextHasPayload() const {
    return !isComplete() && protocol_->pattern->messages[next_].hasPayload;
  }
  // Size in bytes of the next message carrying payloadSize payload bytes.
  size_t messageSize(size_t payloadSize) const;
  // Payload bytes carried by a next message of messageSize bytes; nullopt if
  // the message is too short to be one.
  std::optional<size_t> payloadSize(size_t messageSize) const;

  // Writes the next message; out.size() must equal messageSize(payload.size()).
  // Ephemeral keys are drawn from rng.
  [[nodiscard]] HandshakeStatus writeMessage(std::span<const uint8_t> payload,
                                             std::span<uint8_t> out, crypto::Rng& rng);
  // Reads the next message; payloadOut.size() must equal
  // payloadSize(message.size()) (else BAD_LENGTH).
  [[nodiscard]] HandshakeStatus readMessage(std::span<const uint8_t> message,
                                            std::span<uint8_t> payloadOut);

  Role role() const { return role_; }
  // The peer's static key once known (initiator: from the start; responder:
  // after the message carrying "s").
  const Public* remoteStatic() const { return rs_ ? &*rs_ : nullptr; }
  const crypto::Sha256Digest& handshakeHash() const { return symmetric_.handshakeHash(); }
  const SymmetricState& symmetric() const { return symmetric_; }
  // Transport keys; nullopt before completion or if OpenSSL fails.
  std::optional<TransportKeys> split() const;

 private:
  struct Work;
  bool mixDh(Work& work, Token token) const;
  HandshakeStatus runTokens(Work& work, std::span<const uint8_t> in, std::span<uint8_t> out,
                            bool writing, crypto::Rng* rng) const;

  Suite suite_;
  const NoiseProtocol* protocol_;
  Role role_;
  size_t next_ = 0;
  KeyPair s_;
  std::optional<KeyPair> e_;
  std::optional<Public> rs_;
  std::optional<Public> re_;
  SymmetricState symmetric_;
};

}  // namespace fips::router::noise
