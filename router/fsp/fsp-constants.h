// SPDX-License-Identifier: MIT
// Every wire constant of FSP, the FIPS session layer (spec 04): prefix fields,
// phases, flag bits, header sizes, session message types, ports, overheads
// and the node.session defaults. Used in fips-router by the FSP codecs and
// the session state machine, whose inputs are untrusted end-to-end messages.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fips::router::fsp {

// --- Common prefix (FIPS spec 04 §1): ver_phase(1) ‖ flags(1) ‖ payload_len(2, LE).
constexpr uint8_t FSP_VERSION = 0;  // high nibble of byte 0
constexpr size_t FSP_PREFIX_SIZE = 4;

// Phase, the low nibble of byte 0.
enum class FspPhase : uint8_t {
  ESTABLISHED = 0x0,  // encrypted (U = 0) or plaintext routing error signal (U = 1)
  SETUP = 0x1,        // SessionSetup, XK msg1
  ACK = 0x2,          // SessionAck, XK msg2
  MSG3 = 0x3,         // SessionMsg3, XK msg3
};

// Flag bits of byte 1. Phases 1-3 must carry 0 in the whole byte; in phase 0
// bits 3-7 are reserved and ignored on receive (reference behaviour).
constexpr uint8_t FLAG_CP = 0x01;  // cleartext coordinates follow the 12-byte header
constexpr uint8_t FLAG_K = 0x02;   // key epoch (session rekey cutover)
constexpr uint8_t FLAG_U = 0x04;   // unencrypted: a routing error signal

// --- Handshake bodies (spec 04 §2). Session flags of SessionSetup.
constexpr uint8_t SESSION_FLAG_REQUEST_ACK = 0x01;
constexpr uint8_t SESSION_FLAG_BIDIRECTIONAL = 0x02;
constexpr size_t COORD_COUNT_SIZE = 2;   // u16 LE entry count
constexpr size_t COORD_ENTRY_SIZE = 16;  // one NodeAddr
constexpr size_t HANDSHAKE_LEN_SIZE = 2;
constexpr size_t XK_MSG1_LEN = 33;
constexpr size_t XK_MSG2_LEN = 57;
constexpr size_t XK_MSG3_LEN = 73;
// SessionMsg3 body: flags(1) ‖ handshake_len(2) ‖ msg3(73).
constexpr size_t MSG3_BODY_SIZE = 1 + HANDSHAKE_LEN_SIZE + XK_MSG3_LEN;  // 76

// --- Encrypted message (spec 04 §3).
constexpr size_t FSP_HEADER_SIZE = 12;  // prefix ‖ counter u64 LE: the AEAD AAD
constexpr size_t FSP_COUNTER_OFFSET = 4;
constexpr size_t FSP_TAG_SIZE = 16;
constexpr size_t FSP_ENCRYPTED_MIN_SIZE = FSP_HEADER_SIZE + FSP_TAG_SIZE;  // 28
constexpr size_t FSP_INNER_HEADER_SIZE = 6;  // timestamp u32 ‖ msg_type ‖ inner_flags
constexpr uint8_t INNER_FLAG_SP = 0x01;      // spin bit

// Session message types (spec 04 §3.1), the inner header's msg_type.
enum class SessionMessageType : uint8_t {
  DATA = 0x10,
  SENDER_REPORT = 0x11,
  RECEIVER_REPORT = 0x12,
  PATH_MTU_NOTIFICATION = 0x13,
  COORDS_WARMUP = 0x14,
};

// Body sizes (minimums on receive; trailing bytes ignored as in the reference).
constexpr size_t DATA_PORTS_SIZE = 4;  // src_port u16 LE ‖ dst_port u16 LE
constexpr size_t PATH_MTU_NOTIFICATION_SIZE = 2;
constexpr size_t SESSION_SENDER_REPORT_SIZE = 46;
constexpr size_t SESSION_RECEIVER_REPORT_SIZE = 66;

// --- Ports (spec 04 §3.2).
constexpr uint16_t PORT_IPV6_SHIM = 256;

// --- Overheads (spec 04 §7), bytes on the wire beyond the payload.
constexpr size_t FIPS_OVERHEAD = 106;       // FMP + datagram + FSP headers and tags
constexpr size_t FIPS_DATA_OVERHEAD = 110;  // FIPS_OVERHEAD + Data ports
constexpr size_t FIPS_IPV6_OVERHEAD = 77;   // IPv6 packet of L bytes → L + 77 on the wire
// Path MTU values below this are ignored (notifications, MtuExceeded, lookups).
constexpr uint16_t MIN_ACTIONABLE_PATH_MTU = 256;

}  // namespace fips::router::fsp
