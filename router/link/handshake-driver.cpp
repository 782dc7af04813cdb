// SPDX-License-Identifier: MIT
// FMP Noise IK handshake steps (see handshake-driver.h). Runs in fips-router;
// msg1/msg2 are untrusted and every failure returns nullopt.
#include "router/link/handshake-driver.h"

#include <cmath>

#include "router/fmp/handshake-frame.h"

namespace fips::router::link {

uint64_t nextResendAtMs(uint64_t nowMs, uint64_t intervalMs, double backoff, uint32_t priorCount) {
  const double delay = static_cast<double>(intervalMs) * std::pow(backoff, priorCount + 1);
  return nowMs + static_cast<uint64_t>(delay);
}

std::optional<OutboundHandshake> startOutbound(const LocalIdentity& local,
                                               const crypto::PublicKey& remote,
                                               const identity::NodeAddr& peer, uint32_t ourIndex,
                                               const TransportAddr& to, uint64_t nowMs,
                                               uint64_t intervalMs, crypto::Rng& rng) {
  noise::Handshake hs = noise::Handshake::initiator(noise::FipsPattern::IK, *local.suite,
                                                    local.key->clone(), remote, local.epoch);
  // -> e, es, s, ss, {epoch}
  std::array<uint8_t, fmp::NOISE_MSG1_SIZE> noiseMsg{};
  if (hs.writeMessage(noiseMsg, rng) != noise::HandshakeStatus::OK) return std::nullopt;
  return OutboundHandshake{.peer = peer,
                           .hs = std::move(hs),
                           .msg1 = fmp::encodeMsg1(ourIndex, noiseMsg),
                           .ourIndex = ourIndex,
                           .to = to,
                           .startMs = nowMs,
                           .nextResendMs = nowMs + intervalMs};
}

std::optional<InboundHello> readMsg1(const LocalIdentity& local,
                                     std::span<const uint8_t, fmp::NOISE_MSG1_SIZE> noiseMsg) {
  noise::Handshake hs = noise::Handshake::responder(noise::FipsPattern::IK, *local.suite,
                                                    local.key->clone(), local.epoch);
  // <- e, es, s, ss, {epoch}
  if (hs.readMessage(noiseMsg) != noise::HandshakeStatus::OK) return std::nullopt;
  if (hs.remoteStatic() == nullptr || !hs.remoteEpoch()) return std::nullopt;
  const crypto::PublicKey remote = *hs.remoteStatic();
  const noise::Epoch epoch = *hs.remoteEpoch();
  return InboundHello{std::move(hs), remote, epoch};
}

std::optional<InboundAnswer> answerMsg1(InboundHello& hello, uint32_t ourIndex, uint32_t theirIndex,
                                        crypto::Rng& rng) {
  // -> e, ee, se, {epoch}
  std::array<uint8_t, fmp::NOISE_MSG2_SIZE> noiseMsg{};
  if (hello.hs.writeMessage(noiseMsg, rng) != noise::HandshakeStatus::OK) return std::nullopt;
  std::optional<noise::TransportKeys> keys = hello.hs.split();
  if (!keys) return std::nullopt;
  return InboundAnswer{fmp::encodeMsg2(ourIndex, theirIndex, noiseMsg), std::move(*keys)};
}

}  // namespace fips::router::link
