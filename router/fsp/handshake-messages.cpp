// SPDX-License-Identifier: MIT
// SessionSetup / SessionAck / SessionMsg3 codecs (FIPS spec 04 §2). Runs in
// fips-router on untrusted input; every read is bounds-checked first.
#include "router/fsp/handshake-messages.h"

#include <algorithm>

#include "router/fmp/fmp-le.h"

namespace fips::router::fsp {
namespace {

using fmp::loadLe16;

// The body after the prefix once the prefix, phase and payload_len check out.
FspResult<std::span<const uint8_t>> handshakeBody(std::span<const uint8_t> message,
                                                  FspPhase phase) {
  const auto prefix = decodeFspPrefix(message);
  if (!prefix.ok()) return prefix.error();
  if (prefix->phase != phase) return FspError::BAD_PHASE;
  const auto body = message.subspan(FSP_PREFIX_SIZE);
  if (prefix->payloadLen != body.size()) return FspError::BAD_LENGTH;
  return body;
}

// Setup and Ack share flags ‖ src ‖ dest ‖ handshake.
template <typename Msg, size_t N>
FspResult<Msg> decodeCoordHandshake(std::span<const uint8_t> message, FspPhase phase,
                                    uint8_t Msg::*flags, std::array<uint8_t, N> Msg::*hs) {
  const auto body = handshakeBody(message, phase);
  if (!body.ok()) return body.error();
  auto rest = body.value();
  if (rest.empty()) return FspError::SHORT;
  Msg msg;
  msg.*flags = rest[0];
  rest = rest.subspan(1);
  auto src = decodeCoordField(rest, true);
  if (!src.ok()) return src.error();
  rest = rest.subspan(src->consumed);
  auto dest = decodeCoordField(rest, true);
  if (!dest.ok()) return dest.error();
  rest = rest.subspan(dest->consumed);
  msg.srcCoords = src->coords;
  msg.destCoords = dest->coords;
  if (rest.size() < HANDSHAKE_LEN_SIZE) return FspError::SHORT;
  if (loadLe16(rest, 0) != N) return FspError::BAD_HANDSHAKE_LEN;
  if (rest.size() < HANDSHAKE_LEN_SIZE + N) return FspError::SHORT;
  if (rest.size() > HANDSHAKE_LEN_SIZE + N) return FspError::LONG;
  std::copy_n(rest.begin() + HANDSHAKE_LEN_SIZE, N, (msg.*hs).begin());
  return msg;
}

std::vector<uint8_t> encodeCoordHandshake(FspPhase phase, uint8_t flags, const Coordinates& src,
                                          const Coordinates& dest,
                                          std::span<const uint8_t> handshake) {
  const size_t bodySize =
      1 + coordFieldSize(src) + coordFieldSize(dest) + HANDSHAKE_LEN_SIZE + handshake.size();
  const auto prefix =
      encodeFspPrefix({.phase = phase, .flags = 0, .payloadLen = static_cast<uint16_t>(bodySize)});
  std::vector<uint8_t> out(FSP_PREFIX_SIZE + bodySize);
  const std::span<uint8_t> o(out);
  std::copy(prefix.begin(), prefix.end(), o.begin());
  size_t off = FSP_PREFIX_SIZE;
  o[off++] = flags;
  off += writeCoordField(o.subspan(off), src);
  off += writeCoordField(o.subspan(off), dest);
  fmp::storeLe16(o, off, static_cast<uint16_t>(handshake.size()));
  off += HANDSHAKE_LEN_SIZE;
  std::copy(handshake.begin(), handshake.end(), o.subspan(off).begin());
  return out;
}

}  // namespace

FspResult<SessionSetup> decodeSessionSetup(std::span<const uint8_t> message) {
  return decodeCoordHandshake(message, FspPhase::SETUP, &SessionSetup::sessionFlags,
                              &SessionSetup::msg1);
}

FspResult<SessionAck> decodeSessionAck(std::span<const uint8_t> message) {
  return decodeCoordHandshake(message, FspPhase::ACK, &SessionAck::flags, &SessionAck::msg2);
}

FspResult<SessionMsg3> decodeSessionMsg3(std::span<const uint8_t> message) {
  const auto body = handshakeBody(message, FspPhase::MSG3);
  if (!body.ok()) return body.error();
  const auto rest = body.value();
  if (rest.size() < 1 + HANDSHAKE_LEN_SIZE) return FspError::SHORT;
  if (loadLe16(rest, 1) != XK_MSG3_LEN) return FspError::BAD_HANDSHAKE_LEN;
  if (rest.size() < MSG3_BODY_SIZE) return FspError::SHORT;
  if (rest.size() > MSG3_BODY_SIZE) return FspError::LONG;
  SessionMsg3 msg;
  msg.flags = rest[0];
  std::copy_n(rest.begin() + 1 + HANDSHAKE_LEN_SIZE, XK_MSG3_LEN, msg.msg3.begin());
  return msg;
}

std::vector<uint8_t> encodeSessionSetup(const SessionSetup& setup) {
  return encodeCoordHandshake(FspPhase::SETUP, setup.sessionFlags, setup.srcCoords,
                              setup.destCoords, setup.msg1);
}

std::vector<uint8_t> encodeSessionAck(const SessionAck& ack) {
  return encodeCoordHandshake(FspPhase::ACK, ack.flags, ack.srcCoords, ack.destCoords, ack.msg2);
}

std::array<uint8_t, FSP_PREFIX_SIZE + MSG3_BODY_SIZE> encodeSessionMsg3(const SessionMsg3& msg3) {
  std::array<uint8_t, FSP_PREFIX_SIZE + MSG3_BODY_SIZE> out{};
  const auto prefix = encodeFspPrefix(
      {.phase = FspPhase::MSG3, .flags = 0, .payloadLen = static_cast<uint16_t>(MSG3_BODY_SIZE)});
  std::copy(prefix.begin(), prefix.end(), out.begin());
  out[FSP_PREFIX_SIZE] = msg3.flags;
  out[FSP_PREFIX_SIZE + 1] = static_cast<uint8_t>(XK_MSG3_LEN);
  out[FSP_PREFIX_SIZE + 2] = 0;
  std::copy(msg3.msg3.begin(), msg3.msg3.end(), out.begin() + FSP_PREFIX_SIZE + 3);
  return out;
}

}  // namespace fips::router::fsp
