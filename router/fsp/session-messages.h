// SPDX-License-Identifier: MIT
// The decrypted side of an FSP encrypted message (FIPS spec 04 §3, §3.1,
// §3.3): the 6-byte inner header and the session message bodies: Data
// (ports), SenderReport (46), ReceiverReport (66), PathMtuNotification and
// CoordsWarmup (empty). Runs in fips-router; plaintexts authenticated by the
// session AEAD but sent by a remote node, so still untrusted in content.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "router/fmp/link-reports.h"
#include "router/fsp/fsp-constants.h"
#include "router/fsp/fsp-error.h"

namespace fips::router::fsp {

// timestamp u32 LE (ms since this session's start) ‖ msg_type ‖ inner_flags.
struct InnerHeader {
  uint32_t timestampMs = 0;
  uint8_t msgType = 0;     // raw byte; see sessionMessageType()
  uint8_t innerFlags = 0;  // bit0 SP (spin bit)
};

struct InnerPlaintext {
  InnerHeader header;
  std::span<const uint8_t> body;  // borrowed
};

// The known session message type of a raw msg_type byte, or nullopt.
std::optional<SessionMessageType> sessionMessageType(uint8_t msgType);

// Splits a decrypted plaintext. SHORT below 6 bytes. The msg_type is not
// checked here (unknown types are counted by the dispatcher).
FspResult<InnerPlaintext> decodeInnerPlaintext(std::span<const uint8_t> plaintext);

// inner header ‖ body.
std::vector<uint8_t> encodeInnerPlaintext(const InnerHeader& header, std::span<const uint8_t> body);

// Data (0x10) body: src_port u16 LE ‖ dst_port u16 LE ‖ service payload.
struct DataBody {
  uint16_t srcPort = 0;
  uint16_t dstPort = 0;
  std::span<const uint8_t> payload;  // borrowed
};

// SHORT below 4 bytes.
FspResult<DataBody> decodeDataBody(std::span<const uint8_t> body);
// The 4 port bytes that precede the service payload.
std::array<uint8_t, DATA_PORTS_SIZE> encodeDataPorts(uint16_t srcPort, uint16_t dstPort);

// PathMtuNotification (0x13) body: path_mtu u16 LE. SHORT below 2 bytes;
// trailing bytes ignored (reference behaviour).
FspResult<uint16_t> decodePathMtuNotification(std::span<const uint8_t> body);
std::array<uint8_t, PATH_MTU_NOTIFICATION_SIZE> encodePathMtuNotification(uint16_t pathMtu);

// Session reports: the link report fields (router/fmp/link-reports.h) without
// the msg_type byte and with 2 reserved bytes in front. SHORT below 46 / 66
// bytes; reserved and trailing bytes ignored.
FspResult<fmp::SenderReport> decodeSessionSenderReport(std::span<const uint8_t> body);
FspResult<fmp::ReceiverReport> decodeSessionReceiverReport(std::span<const uint8_t> body);
std::array<uint8_t, SESSION_SENDER_REPORT_SIZE> encodeSessionSenderReport(
    const fmp::SenderReport& report);
std::array<uint8_t, SESSION_RECEIVER_REPORT_SIZE> encodeSessionReceiverReport(
    const fmp::ReceiverReport& report);

}  // namespace fips::router::fsp
