// SPDX-License-Identifier: MIT
// The FSP handshake messages that carry Noise XK: SessionSetup (phase 1,
// msg1), SessionAck (phase 2, msg2) and SessionMsg3 (phase 3, msg3), FIPS
// spec 04 §2.1-§2.3. Runs in fips-router; messages come from remote nodes and
// are untrusted. Decoders take the whole FSP message, prefix included.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "router/fsp/fsp-prefix.h"

namespace fips::router::fsp {

// SessionSetup body: session_flags(1) ‖ src_coords ‖ dest_coords ‖
// handshake_len u16 LE (= 33) ‖ XK msg1. Both coordinate fields have >= 1
// entry. dest_coords are the responder's cached coordinates, or the
// initiator's own when unknown.
struct SessionSetup {
  uint8_t sessionFlags = 0;  // REQUEST_ACK | BIDIRECTIONAL; the reference sends 0
  Coordinates srcCoords;
  Coordinates destCoords;
  std::array<uint8_t, XK_MSG1_LEN> msg1{};
};

// SessionAck body: flags(1, reserved) ‖ src_coords (the responder's) ‖
// dest_coords (the initiator's, copied from the Setup) ‖ handshake_len
// (= 57) ‖ XK msg2.
struct SessionAck {
  uint8_t flags = 0;
  Coordinates srcCoords;
  Coordinates destCoords;
  std::array<uint8_t, XK_MSG2_LEN> msg2{};
};

// SessionMsg3 body: flags(1, reserved) ‖ handshake_len (= 73) ‖ XK msg3.
struct SessionMsg3 {
  uint8_t flags = 0;
  std::array<uint8_t, XK_MSG3_LEN> msg3{};
};

// Decoders. Errors: the prefix's (decodeFspPrefix), BAD_PHASE for another
// phase, BAD_LENGTH if payload_len != bytes after the prefix, SHORT if a field
// does not fit, BAD_COUNT for a coordinate count of 0, BAD_HANDSHAKE_LEN if
// handshake_len is not the XK size, LONG if bytes follow the XK message.
// The body flags bytes are not checked (the reference ignores them).
FspResult<SessionSetup> decodeSessionSetup(std::span<const uint8_t> message);
FspResult<SessionAck> decodeSessionAck(std::span<const uint8_t> message);
FspResult<SessionMsg3> decodeSessionMsg3(std::span<const uint8_t> message);

// Whole messages, prefix included (flags byte 0, payload_len = body length).
// Coordinates must be non-empty for the receiver to accept them.
std::vector<uint8_t> encodeSessionSetup(const SessionSetup& setup);
std::vector<uint8_t> encodeSessionAck(const SessionAck& ack);
std::array<uint8_t, FSP_PREFIX_SIZE + MSG3_BODY_SIZE> encodeSessionMsg3(const SessionMsg3& msg3);

}  // namespace fips::router::fsp
