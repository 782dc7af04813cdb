// SPDX-License-Identifier: MIT
// The FMP link-control messages: Disconnect (0x50 ‖ reason) and Heartbeat
// (0x51 alone), FIPS spec 02 §8. Runs in fips-router; bodies come from peers
// and are untrusted.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "router/fmp/fmp-constants.h"
#include "router/fmp/fmp-error.h"

namespace fips::router::fmp {

// The reason for a reason byte; unlisted codes map to OTHER (0xFF), as the
// reference does, so any byte is accepted.
DisconnectReason disconnectReason(uint8_t code);

// Name of a reason ("ConfigurationChange"), for logs.
const char* toString(DisconnectReason reason);

// Decodes a Disconnect body (the bytes after 0x50). SHORT if empty; bytes
// after the reason are ignored (reference behaviour).
FmpResult<DisconnectReason> decodeDisconnect(std::span<const uint8_t> body);

// The 2-byte message 0x50 ‖ reason.
std::array<uint8_t, DISCONNECT_SIZE> encodeDisconnect(DisconnectReason reason);

// The 1-byte message 0x51. A Heartbeat has no body to decode: any bytes after
// the type are ignored (the reference treats it as a no-op).
std::array<uint8_t, HEARTBEAT_SIZE> encodeHeartbeat();

}  // namespace fips::router::fmp
