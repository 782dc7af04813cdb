// SPDX-License-Identifier: MIT
// The Noise IK handshake as FMP drives it (spec 02 §2, §5; spec 01 §6.3): an
// outbound handshake with its msg1 resend schedule, and the responder steps
// that read a msg1 and answer it with a framed msg2. Runs in fips-router; msg1
// and msg2 bytes come from the network and are untrusted.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "lib/crypto/rng.h"
#include "lib/identity/node-addr.h"
#include "router/fmp/fmp-constants.h"
#include "router/link/transport-addr.h"
#include "router/noise/handshake.h"

namespace fips::router::link {

// Who we are, for every handshake; the pointers outlive the handshakes.
struct LocalIdentity {
  const noise::Secp256k1Suite* suite;
  const crypto::SecretKey* key;
  noise::Epoch epoch;
};

// Our msg1 in flight to one peer.
struct OutboundHandshake {
  identity::NodeAddr peer;
  noise::Handshake hs;
  std::array<uint8_t, fmp::MSG1_SIZE> msg1;  // resent byte for byte
  uint32_t ourIndex;
  TransportAddr to;
  uint64_t startMs;
  uint64_t nextResendMs;
  uint32_t resends = 0;
  // Resends prompted by the peer's frames on ourIndex (its msg2 was lost),
  // outside the timer's schedule; the last one's time, monotonic ms.
  uint32_t frameResends = 0;
  std::optional<uint64_t> lastFrameResendMs = std::nullopt;
};

// Gap (ms) between two msg1 resends prompted by the peer's frames on the
// index of a handshake in flight: the first goes at once, within one RTT
// of the peer's first frame; a burst of frames costs one msg1.
constexpr uint64_t FRAME_RESEND_GAP_MS = 200;

// The reference's resend schedule: now + interval × backoff^(priorCount + 1), ms.
uint64_t nextResendAtMs(uint64_t nowMs, uint64_t intervalMs, double backoff, uint32_t priorCount);

// Builds msg1 (e, es, s, ss, {epoch}) with our index; the first resend falls
// at nowMs + intervalMs. nullopt if the rng fails.
std::optional<OutboundHandshake> startOutbound(const LocalIdentity& local,
                                               const crypto::PublicKey& remote,
                                               const identity::NodeAddr& peer, uint32_t ourIndex,
                                               const TransportAddr& to, uint64_t nowMs,
                                               uint64_t intervalMs, crypto::Rng& rng);

// A msg1 that verified: the initiator's static key and epoch, and the
// handshake ready to write msg2.
struct InboundHello {
  noise::Handshake hs;
  crypto::PublicKey remote;
  noise::Epoch remoteEpoch;
};

// Reads the Noise part of a msg1 as responder; nullopt if it does not verify.
std::optional<InboundHello> readMsg1(const LocalIdentity& local,
                                     std::span<const uint8_t, fmp::NOISE_MSG1_SIZE> noiseMsg);

// msg2 framed with our index and the initiator's, plus the transport keys.
struct InboundAnswer {
  std::array<uint8_t, fmp::MSG2_SIZE> msg2;
  noise::TransportKeys keys;
};

// Writes msg2 (e, ee, se, {epoch}) and splits; nullopt if the rng fails.
std::optional<InboundAnswer> answerMsg1(InboundHello& hello, uint32_t ourIndex, uint32_t theirIndex,
                                        crypto::Rng& rng);

}  // namespace fips::router::link
