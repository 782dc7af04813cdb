// SPDX-License-Identifier: MIT
// FIPS IK/XK handshakes (see handshake.h). Runs in fips-router; parses
// untrusted handshake messages through the generic pattern machine.
#include "router/noise/handshake.h"

namespace fips::router::noise {

namespace {
const NoiseProtocol& protocolFor(FipsPattern pattern) {
  return pattern == FipsPattern::IK ? FIPS_IK : FIPS_XK;
}
}  // namespace

Handshake Handshake::initiator(FipsPattern pattern, const Secp256k1Suite& suite,
                               crypto::SecretKey localStatic, crypto::PublicKey remoteStatic,
                               const Epoch& localEpoch) {
  return Handshake(pattern,
                   HandshakeState<Secp256k1Suite>(suite, protocolFor(pattern), Role::INITIATOR,
                                                  std::move(localStatic), remoteStatic),
                   localEpoch);
}

Handshake Handshake::responder(FipsPattern pattern, const Secp256k1Suite& suite,
                               crypto::SecretKey localStatic, const Epoch& localEpoch) {
  return Handshake(pattern,
                   HandshakeState<Secp256k1Suite>(suite, protocolFor(pattern), Role::RESPONDER,
                                                  std::move(localStatic), std::nullopt),
                   localEpoch);
}

bool Handshake::nextCarriesEpoch() const {
  // Every FIPS message carries the epoch except XK msg1 (pitfall 5).
  return state_.nextHasPayload();
}

size_t Handshake::nextMessageSize() const {
  if (state_.isComplete()) return 0;
  return state_.messageSize(nextCarriesEpoch() ? Epoch().size() : 0);
}

HandshakeStatus Handshake::writeMessage(std::span<uint8_t> out, crypto::Rng& rng) {
  if (!state_.isMyTurn()) return HandshakeStatus::UNEXPECTED_MESSAGE;
  if (out.size() != nextMessageSize()) return HandshakeStatus::BAD_LENGTH;
  const std::span<const uint8_t> payload =
      nextCarriesEpoch() ? std::span<const uint8_t>(localEpoch_) : std::span<const uint8_t>();
  return state_.writeMessage(payload, out, rng);
}

HandshakeStatus Handshake::readMessage(std::span<const uint8_t> message) {
  if (state_.isComplete() || state_.isMyTurn()) return HandshakeStatus::UNEXPECTED_MESSAGE;
  if (message.size() != nextMessageSize()) return HandshakeStatus::BAD_LENGTH;
  const bool carriesEpoch = nextCarriesEpoch();
  Epoch epoch{};
  const std::span<uint8_t> payload =
      carriesEpoch ? std::span<uint8_t>(epoch) : std::span<uint8_t>();
  const HandshakeStatus status = state_.readMessage(message, payload);
  if (status == HandshakeStatus::OK && carriesEpoch) remoteEpoch_ = epoch;
  return status;
}

}  // namespace fips::router::noise
