// SPDX-License-Identifier: MIT
// Routing error signal codec (FIPS spec 04 §6). Runs in fips-router; input is
// untrusted, unauthenticated network bytes.
#include "router/routing/routing-signal.h"

#include <algorithm>

#include "router/fmp/fmp-le.h"
#include "router/routing/coords-wire.h"

namespace fips::router::routing {

namespace {

// Offsets after the FSP prefix.
constexpr size_t DEST_OFFSET = 2;  // type ‖ flags
constexpr size_t REPORTER_OFFSET = DEST_OFFSET + NodeAddr::SIZE;
constexpr size_t TAIL_OFFSET = REPORTER_OFFSET + NodeAddr::SIZE;  // 34: count or mtu
static_assert(TAIL_OFFSET == COORDS_REQUIRED_SIZE);

NodeAddr addrAt(std::span<const uint8_t> bytes, size_t off) {
  std::array<uint8_t, NodeAddr::SIZE> out{};
  const auto src = bytes.subspan(off, NodeAddr::SIZE);
  std::copy(src.begin(), src.end(), out.begin());
  return NodeAddr(out);
}

void putAddr(std::vector<uint8_t>& out, const NodeAddr& addr) {
  out.insert(out.end(), addr.bytes().begin(), addr.bytes().end());
}

std::vector<uint8_t> header(RoutingSignalType type, const NodeAddr& dest,
                            const NodeAddr& reporter) {
  std::vector<uint8_t> out{0x00, FSP_FLAG_UNENCRYPTED, 0, 0, static_cast<uint8_t>(type), 0x00};
  putAddr(out, dest);
  putAddr(out, reporter);
  return out;
}

struct Encoder {
  std::vector<uint8_t> operator()(const CoordsRequired& s) const {
    return header(RoutingSignalType::COORDS_REQUIRED, s.destAddr, s.reporter);
  }
  std::vector<uint8_t> operator()(const PathBroken& s) const {
    auto out = header(RoutingSignalType::PATH_BROKEN, s.destAddr, s.reporter);
    encodeCoords(s.lastKnownCoords, out);
    return out;
  }
  std::vector<uint8_t> operator()(const MtuExceeded& s) const {
    auto out = header(RoutingSignalType::MTU_EXCEEDED, s.destAddr, s.reporter);
    out.push_back(static_cast<uint8_t>(s.mtu & 0xFFU));
    out.push_back(static_cast<uint8_t>(s.mtu >> 8U));
    return out;
  }
};

}  // namespace

const char* toString(SignalError error) {
  switch (error) {
    case SignalError::EMPTY:
      return "empty";
    case SignalError::UNKNOWN_TYPE:
      return "unknown_type";
    case SignalError::SHORT:
      return "short";
    case SignalError::TRUNCATED_COORDS:
      return "truncated_coords";
  }
  return "unknown";
}

const NodeAddr& signalDestAddr(const RoutingSignal& signal) {
  return std::visit([](const auto& s) -> const NodeAddr& { return s.destAddr; }, signal);
}

Result<RoutingSignal, SignalError> decodeRoutingSignal(std::span<const uint8_t> in) {
  if (in.empty()) return SignalError::EMPTY;
  const auto type = static_cast<RoutingSignalType>(in[0]);
  switch (type) {
    case RoutingSignalType::COORDS_REQUIRED:
      if (in.size() < COORDS_REQUIRED_SIZE) return SignalError::SHORT;
      return RoutingSignal{CoordsRequired{.destAddr = addrAt(in, DEST_OFFSET),
                                          .reporter = addrAt(in, REPORTER_OFFSET)}};
    case RoutingSignalType::PATH_BROKEN: {
      if (in.size() < PATH_BROKEN_MIN_SIZE) return SignalError::SHORT;
      auto coords = decodeCoords(in.subspan(TAIL_OFFSET), /*allowEmpty=*/true);
      if (!coords.ok()) return SignalError::TRUNCATED_COORDS;
      return RoutingSignal{PathBroken{.destAddr = addrAt(in, DEST_OFFSET),
                                      .reporter = addrAt(in, REPORTER_OFFSET),
                                      .lastKnownCoords = std::move(coords.value().coords)}};
    }
    case RoutingSignalType::MTU_EXCEEDED:
      if (in.size() < MTU_EXCEEDED_SIZE) return SignalError::SHORT;
      return RoutingSignal{MtuExceeded{.destAddr = addrAt(in, DEST_OFFSET),
                                       .reporter = addrAt(in, REPORTER_OFFSET),
                                       .mtu = fmp::loadLe16(in, TAIL_OFFSET)}};
  }
  return SignalError::UNKNOWN_TYPE;
}

std::vector<uint8_t> encodeRoutingSignal(const RoutingSignal& signal) {
  std::vector<uint8_t> out = std::visit(Encoder{}, signal);
  fmp::storeLe16(out, 2, static_cast<uint16_t>(out.size() - FSP_PREFIX_SIZE));
  return out;
}

}  // namespace fips::router::routing
