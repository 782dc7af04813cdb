// SPDX-License-Identifier: MIT
// Tests of the Disconnect and Heartbeat codecs (spec 02 §8): every reason,
// unknown reasons as Other, empty and trailing bodies. Test code for the
// fips-router codecs; inputs are crafted here.
#include "router/fmp/disconnect.h"

#include <string>

#include "router/fmp/fmp-test-util.h"
#include "router/fmp/link-message.h"

namespace fips::router::fmp {
namespace {

TEST_CASE("every listed reason round-trips with its code and name") {
  struct Reason {
    DisconnectReason reason;
    uint8_t code;
    const char* name;
  };
  for (const Reason r :
       {Reason{DisconnectReason::SHUTDOWN, 0x00, "Shutdown"},
        Reason{DisconnectReason::RESTART, 0x01, "Restart"},
        Reason{DisconnectReason::PROTOCOL_ERROR, 0x02, "ProtocolError"},
        Reason{DisconnectReason::TRANSPORT_FAILURE, 0x03, "TransportFailure"},
        Reason{DisconnectReason::RESOURCE_EXHAUSTION, 0x04, "ResourceExhaustion"},
        Reason{DisconnectReason::SECURITY_VIOLATION, 0x05, "SecurityViolation"},
        Reason{DisconnectReason::CONFIGURATION_CHANGE, 0x06, "ConfigurationChange"},
        Reason{DisconnectReason::TIMEOUT, 0x07, "Timeout"},
        Reason{DisconnectReason::OTHER, 0xFF, "Other"}}) {
    CAPTURE(r.name);
    const auto wire = encodeDisconnect(r.reason);
    CHECK(wire == std::array<uint8_t, 2>{0x50, r.code});
    const auto env = decodeLinkMessage(wire);
    REQUIRE(env.ok());
    CHECK(env->type == LinkMessageType::DISCONNECT);
    CHECK(decodeDisconnect(env->body).value() == r.reason);
    CHECK(std::string(toString(r.reason)) == r.name);
  }
}

TEST_CASE("unknown reason codes decode as Other") {
  for (unsigned code = 0x08; code < 0xFF; ++code) {
    const std::array<uint8_t, 1> body = {static_cast<uint8_t>(code)};
    CHECK(decodeDisconnect(body).value() == DisconnectReason::OTHER);
    CHECK(disconnectReason(static_cast<uint8_t>(code)) == DisconnectReason::OTHER);
  }
}

TEST_CASE("empty Disconnect body is SHORT; trailing bytes are ignored") {
  CHECK(decodeDisconnect({}).error() == FmpError::SHORT);
  const std::array<uint8_t, 1> onlyType = {0x50};
  CHECK(decodeLinkMessage(onlyType).error() == FmpError::SHORT);
  const std::array<uint8_t, 4> body = {0x06, 0xAA, 0xBB, 0xCC};
  CHECK(decodeDisconnect(body).value() == DisconnectReason::CONFIGURATION_CHANGE);
}

TEST_CASE("Heartbeat is the single byte 0x51") {
  CHECK(encodeHeartbeat() == std::array<uint8_t, 1>{0x51});
  const auto env = decodeLinkMessage(encodeHeartbeat());
  REQUIRE(env.ok());
  CHECK(env->type == LinkMessageType::HEARTBEAT);
  CHECK(env->body.empty());
}

}  // namespace
}  // namespace fips::router::fmp
