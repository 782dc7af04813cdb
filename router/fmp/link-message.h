// SPDX-License-Identifier: MIT
// FMP link messages as envelopes: the msg_type byte and a body whose framing
// (minimum or exact length, counts, version and size fields) has been checked
// as the reference's decoders check it (FIPS spec 02 §6-§9, spec 03 §2, §4.3,
// §5). Runs in fips-router; messages come from peers and are untrusted.
// TreeAnnounce, FilterAnnounce and the lookups are not parsed further here.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "router/fmp/fmp-constants.h"
#include "router/fmp/fmp-error.h"

namespace fips::router::fmp {

// A link message whose body is framed correctly for its type. body borrows
// from the input and starts after the msg_type byte.
struct LinkMessage {
  LinkMessageType type;
  std::span<const uint8_t> body;
};

// The type for a msg_type byte, or nullopt if spec 02 §6 does not list it.
std::optional<LinkMessageType> linkMessageType(uint8_t msgType);

// Name of a link message type ("TreeAnnounce"), for logs.
const char* toString(LinkMessageType type);

// Checks a message that starts with its msg_type byte (InnerPlaintext::message).
// SHORT if empty; UNKNOWN_TYPE; then per type (sizes are of the body):
//   SessionDatagram  SHORT < 35
//   SenderReport     SHORT < 47;  ReceiverReport SHORT < 67
//   TreeAnnounce     SHORT < 99, BAD_VERSION (!= 1), SHORT < 35 + 32n + 64, BAD_COUNT (n = 0)
//   FilterAnnounce   SHORT < 10, BAD_SIZE_CLASS (!= 1), SHORT/LONG (filter != 1024 bytes),
//                    BAD_HASH_COUNT (0)
//   LookupRequest    SHORT < 45, SHORT < 45 + 16n, BAD_COUNT (n = 0)
//   LookupResponse   SHORT < 92, SHORT < 28 + 16n + 64, BAD_COUNT (n = 0)
//   Disconnect       SHORT < 1;   Heartbeat: any body
// Trailing bytes are accepted wherever the reference ignores them (all but
// FilterAnnounce).
FmpResult<LinkMessage> decodeLinkMessage(std::span<const uint8_t> message);

// msg_type ‖ body, the inverse of decodeLinkMessage (no checks: the caller
// built the body).
std::vector<uint8_t> encodeLinkMessage(LinkMessageType type, std::span<const uint8_t> body);

}  // namespace fips::router::fmp
