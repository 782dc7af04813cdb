// SPDX-License-Identifier: MIT
// Every wire constant of FMP, the FIPS link layer (spec 02, plus the envelope
// sizes of the link messages defined in spec 03): prefix fields, phases, flag
// bits, frame sizes, link message types and disconnect reasons. Used in
// fips-router by the codecs that parse untrusted frames from transport workers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fips::router::fmp {

// --- Common prefix (FIPS spec 02 §1): ver_phase(1) ‖ flags(1) ‖ payload_len(2, LE).
constexpr uint8_t FMP_VERSION = 0;  // high nibble of byte 0
constexpr size_t PREFIX_SIZE = 4;

// Phase, the low nibble of byte 0. Any other value is dropped.
enum class FmpPhase : uint8_t {
  ESTABLISHED = 0x0,
  MSG1 = 0x1,  // Noise IK msg1
  MSG2 = 0x2,  // Noise IK msg2
};

// Flag bits of byte 1. Meaningful only in established frames; handshake
// frames must carry 0. The reserved bits are neither set nor checked by the
// reference.
constexpr uint8_t FLAG_KEY_EPOCH = 0x01;  // K: key epoch (rekey cutover)
constexpr uint8_t FLAG_CE = 0x02;         // CE: congestion experienced
constexpr uint8_t FLAG_SP = 0x04;         // SP: spin bit
constexpr uint8_t FLAGS_RESERVED = 0xF8;

// --- Handshake frames (FIPS spec 02 §2).
constexpr size_t INDEX_SIZE = 4;                                // session index, u32 LE
constexpr size_t NOISE_MSG1_SIZE = 106;                         // e 33 ‖ {s} 49 ‖ {epoch} 24
constexpr size_t NOISE_MSG2_SIZE = 57;                          // e 33 ‖ {epoch} 24
constexpr size_t MSG1_NOISE_OFFSET = PREFIX_SIZE + INDEX_SIZE;  // 8
constexpr size_t MSG2_NOISE_OFFSET = PREFIX_SIZE + 2 * INDEX_SIZE;  // 12
constexpr size_t MSG1_SIZE = MSG1_NOISE_OFFSET + NOISE_MSG1_SIZE;   // 114
constexpr size_t MSG2_SIZE = MSG2_NOISE_OFFSET + NOISE_MSG2_SIZE;   // 69
constexpr uint16_t MSG1_PAYLOAD_LEN = MSG1_SIZE - PREFIX_SIZE;      // 110
constexpr uint16_t MSG2_PAYLOAD_LEN = MSG2_SIZE - PREFIX_SIZE;      // 65
static_assert(MSG1_SIZE == 114 && MSG2_SIZE == 69);

// --- Established frame (FIPS spec 02 §3): header(16, = AEAD AAD) ‖ ciphertext ‖ tag(16).
constexpr size_t ESTABLISHED_HEADER_SIZE = 16;  // prefix ‖ receiver_idx(4) ‖ counter(8)
constexpr size_t RECEIVER_IDX_OFFSET = 4;
constexpr size_t COUNTER_OFFSET = 8;
constexpr size_t AEAD_TAG_SIZE = 16;
constexpr size_t ESTABLISHED_MIN_SIZE = ESTABLISHED_HEADER_SIZE + AEAD_TAG_SIZE;  // 32
// payload_len is a u16, so no conformant frame is longer than this.
constexpr size_t ESTABLISHED_MAX_SIZE = ESTABLISHED_MIN_SIZE + UINT16_MAX;

// --- Inner plaintext header (FIPS spec 02 §3.2): timestamp u32 LE ‖ msg_type.
constexpr size_t TIMESTAMP_SIZE = 4;
constexpr size_t INNER_HEADER_SIZE = TIMESTAMP_SIZE + 1;  // 5
// Per-frame link overhead including msg_type: 16 + 5 + 16 (spec 02 §3.2).
constexpr size_t LINK_OVERHEAD = ESTABLISHED_HEADER_SIZE + INNER_HEADER_SIZE + AEAD_TAG_SIZE;
static_assert(LINK_OVERHEAD == 37);

// Link message types, the first plaintext byte after the timestamp (spec 02 §6).
enum class LinkMessageType : uint8_t {
  SESSION_DATAGRAM = 0x00,
  SENDER_REPORT = 0x01,
  RECEIVER_REPORT = 0x02,
  TREE_ANNOUNCE = 0x10,
  FILTER_ANNOUNCE = 0x20,
  LOOKUP_REQUEST = 0x30,
  LOOKUP_RESPONSE = 0x31,
  DISCONNECT = 0x50,
  HEARTBEAT = 0x51,
};

// Disconnect reason codes (spec 02 §8). Unknown codes decode as OTHER.
enum class DisconnectReason : uint8_t {
  SHUTDOWN = 0x00,
  RESTART = 0x01,
  PROTOCOL_ERROR = 0x02,
  TRANSPORT_FAILURE = 0x03,
  RESOURCE_EXHAUSTION = 0x04,
  SECURITY_VIOLATION = 0x05,
  CONFIGURATION_CHANGE = 0x06,
  TIMEOUT = 0x07,
  OTHER = 0xFF,
};

// --- Link message sizes. "Body" means the bytes after the msg_type byte.
constexpr size_t NODE_ADDR_SIZE = 16;
constexpr size_t SIGNATURE_SIZE = 64;                // BIP-340 Schnorr
constexpr size_t HEARTBEAT_SIZE = 1;                 // msg_type only
constexpr size_t DISCONNECT_SIZE = 2;                // msg_type ‖ reason
constexpr size_t SESSION_DATAGRAM_HEADER_SIZE = 36;  // type ‖ ttl ‖ path_mtu ‖ src ‖ dest
constexpr size_t SENDER_REPORT_SIZE = 48;            // spec 02 §9.1
constexpr size_t RECEIVER_REPORT_SIZE = 68;          // spec 02 §9.2

// TreeAnnounce (spec 03 §2): version ‖ seq(8) ‖ ts(8) ‖ parent(16) ‖ count(2) ‖
// count × entry(32) ‖ signature(64); trailing bytes are ignored.
constexpr uint8_t TREE_ANNOUNCE_VERSION = 0x01;
constexpr size_t TREE_ANNOUNCE_MIN_BODY = 99;
constexpr size_t TREE_ANNOUNCE_COUNT_OFFSET = 33;  // in the body
constexpr size_t TREE_ENTRY_SIZE = 32;             // node_addr ‖ seq(8) ‖ ts(8)

// FilterAnnounce (spec 03 §4.3): seq(8) ‖ hash_count ‖ size_class ‖ filter;
// the filter is exactly 512 << size_class bytes, and only size_class 1 is valid.
constexpr size_t FILTER_ANNOUNCE_FIXED_BODY = 10;
constexpr uint8_t FILTER_SIZE_CLASS_V1 = 1;
constexpr size_t FILTER_BASE_BYTES = 512;
constexpr size_t FILTER_BYTES_V1 = FILTER_BASE_BYTES << FILTER_SIZE_CLASS_V1;              // 1024
constexpr size_t FILTER_ANNOUNCE_SIZE = 1 + FILTER_ANNOUNCE_FIXED_BODY + FILTER_BYTES_V1;  // 1035

// LookupRequest (spec 03 §5.1): request_id(8) ‖ target ‖ origin ‖ ttl ‖ min_mtu(2) ‖
// count(2) ‖ count × NodeAddr; trailing bytes are ignored.
constexpr size_t LOOKUP_REQUEST_MIN_BODY = 45;
constexpr size_t LOOKUP_REQUEST_COUNT_OFFSET = 43;  // in the body

// LookupResponse (spec 03 §5.2): request_id(8) ‖ target ‖ path_mtu(2) ‖ count(2) ‖
// count × NodeAddr ‖ proof(64); trailing bytes are ignored.
constexpr size_t LOOKUP_RESPONSE_MIN_BODY = 92;
constexpr size_t LOOKUP_RESPONSE_COUNT_OFFSET = 26;  // in the body

}  // namespace fips::router::fmp
