// SPDX-License-Identifier: MIT
// Envelope checks for FMP link messages (FIPS spec 02 §6-§9, spec 03 §2,
// §4.3, §5). Runs in fips-router; messages come from peers and are untrusted.
// Each check mirrors the length rules of the reference's decoder for that type.
#include "router/fmp/link-message.h"

#include "router/fmp/fmp-le.h"

namespace fips::router::fmp {

namespace {

using Body = std::span<const uint8_t>;

std::optional<FmpError> needAtLeast(Body body, size_t n) {
  if (body.size() < n) return FmpError::SHORT;
  return std::nullopt;
}

// Address-only coordinates: count u16 LE ‖ count × NodeAddr at `off`, then
// `after` more bytes (src/proto/coord.rs decode_coords).
std::optional<FmpError> checkCoords(Body body, size_t off, size_t after) {
  const size_t count = loadLe16(body, off);
  const size_t end = off + 2 + count * NODE_ADDR_SIZE;
  if (body.size() < end) return FmpError::SHORT;
  if (count == 0) return FmpError::BAD_COUNT;
  return needAtLeast(body, end + after);
}

// Spec 03 §2 (src/proto/stp/wire.rs).
std::optional<FmpError> checkTreeAnnounce(Body body) {
  if (body.size() < TREE_ANNOUNCE_MIN_BODY) return FmpError::SHORT;
  if (body[0] != TREE_ANNOUNCE_VERSION) return FmpError::BAD_VERSION;
  const size_t count = loadLe16(body, TREE_ANNOUNCE_COUNT_OFFSET);
  const size_t entries = TREE_ANNOUNCE_COUNT_OFFSET + 2;
  if (body.size() < entries + count * TREE_ENTRY_SIZE + SIGNATURE_SIZE) return FmpError::SHORT;
  if (count == 0) return FmpError::BAD_COUNT;
  return std::nullopt;
}

// Spec 03 §4.3 (src/proto/bloom/wire.rs): the filter length is exact.
std::optional<FmpError> checkFilterAnnounce(Body body) {
  if (body.size() < FILTER_ANNOUNCE_FIXED_BODY) return FmpError::SHORT;
  const uint8_t hashCount = body[8];
  const uint8_t sizeClass = body[9];
  if (sizeClass != FILTER_SIZE_CLASS_V1) return FmpError::BAD_SIZE_CLASS;
  const size_t filterLen = body.size() - FILTER_ANNOUNCE_FIXED_BODY;
  if (filterLen < FILTER_BYTES_V1) return FmpError::SHORT;
  if (filterLen > FILTER_BYTES_V1) return FmpError::LONG;
  if (hashCount == 0) return FmpError::BAD_HASH_COUNT;
  return std::nullopt;
}

// Spec 03 §5.1 (src/proto/lookup/wire.rs).
std::optional<FmpError> checkLookupRequest(Body body) {
  if (body.size() < LOOKUP_REQUEST_MIN_BODY) return FmpError::SHORT;
  return checkCoords(body, LOOKUP_REQUEST_COUNT_OFFSET, 0);
}

// Spec 03 §5.2 (src/proto/lookup/wire.rs): coordinates, then the 64-byte proof.
std::optional<FmpError> checkLookupResponse(Body body) {
  if (body.size() < LOOKUP_RESPONSE_MIN_BODY) return FmpError::SHORT;
  return checkCoords(body, LOOKUP_RESPONSE_COUNT_OFFSET, SIGNATURE_SIZE);
}

std::optional<FmpError> checkBody(LinkMessageType type, Body body) {
  switch (type) {
    case LinkMessageType::SESSION_DATAGRAM:
      return needAtLeast(body, SESSION_DATAGRAM_HEADER_SIZE - 1);
    case LinkMessageType::SENDER_REPORT:
      return needAtLeast(body, SENDER_REPORT_SIZE - 1);
    case LinkMessageType::RECEIVER_REPORT:
      return needAtLeast(body, RECEIVER_REPORT_SIZE - 1);
    case LinkMessageType::TREE_ANNOUNCE:
      return checkTreeAnnounce(body);
    case LinkMessageType::FILTER_ANNOUNCE:
      return checkFilterAnnounce(body);
    case LinkMessageType::LOOKUP_REQUEST:
      return checkLookupRequest(body);
    case LinkMessageType::LOOKUP_RESPONSE:
      return checkLookupResponse(body);
    case LinkMessageType::DISCONNECT:
      return needAtLeast(body, DISCONNECT_SIZE - 1);
    case LinkMessageType::HEARTBEAT:
      return std::nullopt;
  }
  return FmpError::UNKNOWN_TYPE;
}

}  // namespace

std::optional<LinkMessageType> linkMessageType(uint8_t msgType) {
  switch (static_cast<LinkMessageType>(msgType)) {
    case LinkMessageType::SESSION_DATAGRAM:
    case LinkMessageType::SENDER_REPORT:
    case LinkMessageType::RECEIVER_REPORT:
    case LinkMessageType::TREE_ANNOUNCE:
    case LinkMessageType::FILTER_ANNOUNCE:
    case LinkMessageType::LOOKUP_REQUEST:
    case LinkMessageType::LOOKUP_RESPONSE:
    case LinkMessageType::DISCONNECT:
    case LinkMessageType::HEARTBEAT:
      return static_cast<LinkMessageType>(msgType);
  }
  return std::nullopt;
}

const char* toString(LinkMessageType type) {
  switch (type) {
    case LinkMessageType::SESSION_DATAGRAM:
      return "SessionDatagram";
    case LinkMessageType::SENDER_REPORT:
      return "SenderReport";
    case LinkMessageType::RECEIVER_REPORT:
      return "ReceiverReport";
    case LinkMessageType::TREE_ANNOUNCE:
      return "TreeAnnounce";
    case LinkMessageType::FILTER_ANNOUNCE:
      return "FilterAnnounce";
    case LinkMessageType::LOOKUP_REQUEST:
      return "LookupRequest";
    case LinkMessageType::LOOKUP_RESPONSE:
      return "LookupResponse";
    case LinkMessageType::DISCONNECT:
      return "Disconnect";
    case LinkMessageType::HEARTBEAT:
      return "Heartbeat";
  }
  return "Unknown";
}

FmpResult<LinkMessage> decodeLinkMessage(std::span<const uint8_t> message) {
  if (message.empty()) return FmpError::SHORT;
  const auto type = linkMessageType(message[0]);
  if (!type) return FmpError::UNKNOWN_TYPE;
  const Body body = message.subspan(1);
  if (const auto e = checkBody(*type, body)) return *e;
  return LinkMessage{.type = *type, .body = body};
}

std::vector<uint8_t> encodeLinkMessage(LinkMessageType type, std::span<const uint8_t> body) {
  std::vector<uint8_t> out;
  out.reserve(1 + body.size());
  out.push_back(static_cast<uint8_t>(type));
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

}  // namespace fips::router::fmp
