// SPDX-License-Identifier: MIT
// Why the FMP link engine dropped a received datagram: one counter per reason
// (STYLE 2.7). Runs in fips-router; every value describes untrusted input.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "router/fmp/fmp-error.h"
#include "router/noise/cipher-state.h"

namespace fips::router::link {

enum class DropReason : uint8_t {
  SHORT,                 // too short for the prefix or the phase's frame
  LONG,                  // longer than the phase's frame
  BAD_VERSION,           // FMP version nibble != 0
  BAD_PHASE,             // phase not 0, 1 or 2
  BAD_PAYLOAD_LEN,       // payload_len disagrees with what arrived (spec 02 §1)
  BAD_FLAGS,             // non-zero flags in a handshake frame
  UNKNOWN_INDEX,         // established frame: no link registered for (transport, receiver_idx)
  UNMATCHED_MSG2,        // msg2 answering no handshake of ours (late, duplicate or forged)
  RATE_LIMITED,          // msg1 from an established peer's address refused by its bucket
  AT_MAX_PEERS,          // new peer refused before msg2 (spec 02 §5)
  AT_MAX_LINKS,          // link table full
  HANDSHAKE_FAILED,      // Noise msg1/msg2 did not verify
  SELF_CONNECTION,       // msg1 carrying our own static key
  REKEY_REFUSED,         // rekey msg1 dropped (pending, tie-break won, bad state)
  DECRYPT_FAILED,        // established frame did not authenticate
  REPLAY,                // counter already seen or too old
  BAD_COUNTER,           // counter u64 max
  BAD_INNER,             // plaintext shorter than the 5-byte inner header
  UNKNOWN_MESSAGE_TYPE,  // msg_type not in spec 02 §6
  BAD_LINK_MESSAGE,      // body framed wrongly for its type
  HANDSHAKE_PENDING,     // established frame on the index of our msg1 still awaiting msg2
  MSG1_SOURCE_LIMITED,   // msg1 refused: its source address is out of tokens (#25)
  MSG1_PREFIX_LIMITED,   // msg1 refused: its source's IPv6 /64 is out of tokens (#25)
  MSG1_GLOBAL_LIMITED,   // msg1 refused: the global bucket (or all but its reserve) is empty
};

constexpr size_t DROP_REASON_COUNT = 24;
static_assert(static_cast<size_t>(DropReason::MSG1_GLOBAL_LIMITED) + 1 == DROP_REASON_COUNT);

// Stable lower-case name ("bad_payload_len"), for logs and stats.
const char* toString(DropReason reason);

// The drop reason for a codec rejection (FmpError::BAD_LENGTH is BAD_PAYLOAD_LEN).
DropReason dropReasonFor(fmp::FmpError error);
// The drop reason for a frame the session refused to open (never called with OK).
DropReason dropReasonFor(noise::OpenStatus status);

// Per-reason drop counters.
using DropCounters = std::array<uint64_t, DROP_REASON_COUNT>;

}  // namespace fips::router::link
