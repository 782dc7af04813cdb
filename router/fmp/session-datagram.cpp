// SPDX-License-Identifier: MIT
// Codec for the SessionDatagram link message (FIPS spec 02 §7). Runs in
// fips-router; bodies come from peers and are untrusted.
#include "router/fmp/session-datagram.h"

#include <algorithm>

#include "router/fmp/fmp-le.h"

namespace fips::router::fmp {

namespace {

// Offsets in the body (after msg_type).
constexpr size_t PATH_MTU_OFFSET = 1;
constexpr size_t SRC_OFFSET = 3;
constexpr size_t DEST_OFFSET = SRC_OFFSET + NODE_ADDR_SIZE;
constexpr size_t PAYLOAD_OFFSET = DEST_OFFSET + NODE_ADDR_SIZE;  // 35
static_assert(PAYLOAD_OFFSET + 1 == SESSION_DATAGRAM_HEADER_SIZE);

NodeAddrBytes addrAt(std::span<const uint8_t> body, size_t off) {
  NodeAddrBytes addr{};
  const auto src = body.subspan(off).first<NODE_ADDR_SIZE>();
  std::copy(src.begin(), src.end(), addr.begin());
  return addr;
}

}  // namespace

FmpResult<SessionDatagram> decodeSessionDatagram(std::span<const uint8_t> body) {
  if (body.size() < PAYLOAD_OFFSET) return FmpError::SHORT;
  return SessionDatagram{
      .ttl = body[0],
      .pathMtu = loadLe16(body, PATH_MTU_OFFSET),
      .srcAddr = addrAt(body, SRC_OFFSET),
      .destAddr = addrAt(body, DEST_OFFSET),
      .payload = body.subspan(PAYLOAD_OFFSET),
  };
}

std::vector<uint8_t> encodeSessionDatagram(const SessionDatagram& datagram) {
  std::vector<uint8_t> out(SESSION_DATAGRAM_HEADER_SIZE + datagram.payload.size());
  const std::span<uint8_t> body = std::span(out).subspan(1);
  out[0] = static_cast<uint8_t>(LinkMessageType::SESSION_DATAGRAM);
  body[0] = datagram.ttl;
  storeLe16(body, PATH_MTU_OFFSET, datagram.pathMtu);
  std::copy(datagram.srcAddr.begin(), datagram.srcAddr.end(), body.data() + SRC_OFFSET);
  std::copy(datagram.destAddr.begin(), datagram.destAddr.end(), body.data() + DEST_OFFSET);
  std::copy(datagram.payload.begin(), datagram.payload.end(), body.data() + PAYLOAD_OFFSET);
  return out;
}

}  // namespace fips::router::fmp
