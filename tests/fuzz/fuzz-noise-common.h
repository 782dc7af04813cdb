// SPDX-License-Identifier: MIT
// Shared fixture for the Noise fuzz targets: the fixed keys, ephemerals and
// epochs of tests/vectors/noise-{ik,xk}-secp256k1.json, so seed inputs built
// from the vector messages reach every parser stage. Fuzzing only; the input
// is attacker-controlled by design.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "lib/crypto/rng.h"
#include "router/noise/handshake.h"

namespace fips::fuzz {

using router::noise::Epoch;

constexpr std::array<uint8_t, 32> INIT_STATIC = {
    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
    0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20};
constexpr std::array<uint8_t, 32> RESP_STATIC = {
    0xb1, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
    0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0xb0};
constexpr std::array<uint8_t, 32> INIT_EPHEMERAL = {
    0xca, 0x6f, 0x31, 0xcb, 0x42, 0x00, 0x39, 0xe0, 0x8c, 0x2e, 0x3f, 0x3d, 0xd6, 0x48, 0xfb, 0x3c,
    0x27, 0xac, 0x15, 0x54, 0xdc, 0x23, 0xb4, 0xbd, 0x3b, 0xa3, 0xbd, 0x29, 0xde, 0x7b, 0x33, 0x67};
constexpr std::array<uint8_t, 32> RESP_EPHEMERAL = {
    0x34, 0xd9, 0x1f, 0xec, 0x86, 0xb7, 0x61, 0xae, 0xc1, 0x96, 0x3a, 0xf0, 0x17, 0x94, 0x2b, 0xbf,
    0x2c, 0xbf, 0x68, 0xaa, 0xad, 0xa2, 0x5a, 0x70, 0xa0, 0x5f, 0x16, 0xc5, 0xab, 0x4a, 0x9b, 0x20};
constexpr Epoch INIT_EPOCH = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
constexpr Epoch RESP_EPOCH = {0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8};

// One process-wide context and the two static key pairs (built once; libFuzzer
// runs the target many times in one process).
struct Fixture {
  crypto::Secp256k1Context ctx;
  router::noise::Secp256k1Suite suite{ctx};
  crypto::SecretKey init = *crypto::SecretKey::fromSecret(ctx, crypto::Secret<32>(INIT_STATIC));
  crypto::SecretKey resp = *crypto::SecretKey::fromSecret(ctx, crypto::Secret<32>(RESP_STATIC));

  router::noise::Handshake initiator(router::noise::FipsPattern p) const {
    return router::noise::Handshake::initiator(p, suite, init.clone(), resp.publicKey(),
                                               INIT_EPOCH);
  }
  router::noise::Handshake responder(router::noise::FipsPattern p) const {
    return router::noise::Handshake::responder(p, suite, resp.clone(), RESP_EPOCH);
  }
};

inline const Fixture& fixture() {
  static const Fixture f;
  return f;
}

// Writes the handshake's next message with the given fixed ephemeral (or none).
inline void writeNext(router::noise::Handshake& hs, std::span<const uint8_t, 32> ephemeral,
                      std::span<uint8_t> out) {
  crypto::ScriptedRng rng;
  rng.push(ephemeral);
  (void)hs.writeMessage(out.first(hs.nextMessageSize()), rng);
}

}  // namespace fips::fuzz
