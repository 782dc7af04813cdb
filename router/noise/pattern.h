// SPDX-License-Identifier: MIT
// Noise handshake patterns as data (token lists), plus the protocol options
// that switch the FIPS departures from standard Noise on or off. Runs in
// fips-router; constant tables only, no input.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace fips::router::noise {

// Noise message tokens (Noise spec §7.1).
enum class Token : uint8_t { E, S, EE, ES, SE, SS };

// One handshake message: its tokens, then (if hasPayload) EncryptAndHash of
// the payload. FIPS XK msg1 has no payload at all (not even an empty one).
struct MessagePattern {
  std::vector<Token> tokens;
  bool hasPayload = true;
};

// A two-party pattern whose responder static is a pre-message (<- s), which
// covers IK and XK. messages[0] is sent by the initiator, then alternating.
struct HandshakePattern {
  std::vector<MessagePattern> messages;
};

// A protocol = name + pattern + the switches for the FIPS departures
// (spec 01 §6.2, pitfalls 2-5). Standard Noise sets both switches to false.
struct NoiseProtocol {
  std::string_view name;
  const HandshakePattern* pattern;
  // FIPS: handshake AEAD associated data is empty (standard: h).
  bool emptyHandshakeAd;
  // FIPS: the pre-message responder static is hashed as 0x02 ‖ X.
  bool normalizePremessage;
  // Standard: MixHash(prologue) right after Initialize. FIPS mixes none.
  bool mixPrologue;
};

// FIPS link layer (FMP): <- s; -> e, es, s, ss, {epoch}; <- e, ee, es, {epoch}.
// The reference names msg2's last DH "se" but computes DH(s_r, e_i), which is
// the es pairing; the table says what is computed (spec 01 §6.3).
extern const HandshakePattern FIPS_IK_PATTERN;
// FIPS session layer (FSP): <- s; -> e, es; <- e, ee, {epoch}; -> s, se, {epoch}.
extern const HandshakePattern FIPS_XK_PATTERN;
// Textbook Noise IK and XK (Noise spec §7.4), for the published test vectors.
extern const HandshakePattern STANDARD_IK_PATTERN;
extern const HandshakePattern STANDARD_XK_PATTERN;

// "Noise_IK_secp256k1_ChaChaPoly_SHA256" with both FIPS departures on.
extern const NoiseProtocol FIPS_IK;
// "Noise_XK_secp256k1_ChaChaPoly_SHA256" with both FIPS departures on.
extern const NoiseProtocol FIPS_XK;
// "Noise_IK_25519_ChaChaPoly_SHA256", standard.
extern const NoiseProtocol STANDARD_IK_25519;
// "Noise_XK_25519_ChaChaPoly_SHA256", standard.
extern const NoiseProtocol STANDARD_XK_25519;

}  // namespace fips::router::noise
