// SPDX-License-Identifier: MIT
// Codec for the Disconnect and Heartbeat link messages (FIPS spec 02 §8).
// Runs in fips-router; bodies come from peers and are untrusted.
#include "router/fmp/disconnect.h"

namespace fips::router::fmp {

DisconnectReason disconnectReason(uint8_t code) {
  const auto reason = static_cast<DisconnectReason>(code);
  switch (reason) {
    case DisconnectReason::SHUTDOWN:
    case DisconnectReason::RESTART:
    case DisconnectReason::PROTOCOL_ERROR:
    case DisconnectReason::TRANSPORT_FAILURE:
    case DisconnectReason::RESOURCE_EXHAUSTION:
    case DisconnectReason::SECURITY_VIOLATION:
    case DisconnectReason::CONFIGURATION_CHANGE:
    case DisconnectReason::TIMEOUT:
    case DisconnectReason::OTHER:
      return reason;
  }
  return DisconnectReason::OTHER;
}

const char* toString(DisconnectReason reason) {
  switch (reason) {
    case DisconnectReason::SHUTDOWN:
      return "Shutdown";
    case DisconnectReason::RESTART:
      return "Restart";
    case DisconnectReason::PROTOCOL_ERROR:
      return "ProtocolError";
    case DisconnectReason::TRANSPORT_FAILURE:
      return "TransportFailure";
    case DisconnectReason::RESOURCE_EXHAUSTION:
      return "ResourceExhaustion";
    case DisconnectReason::SECURITY_VIOLATION:
      return "SecurityViolation";
    case DisconnectReason::CONFIGURATION_CHANGE:
      return "ConfigurationChange";
    case DisconnectReason::TIMEOUT:
      return "Timeout";
    case DisconnectReason::OTHER:
      return "Other";
  }
  return "Other";
}

FmpResult<DisconnectReason> decodeDisconnect(std::span<const uint8_t> body) {
  if (body.empty()) return FmpError::SHORT;
  return disconnectReason(body[0]);
}

std::array<uint8_t, DISCONNECT_SIZE> encodeDisconnect(DisconnectReason reason) {
  return {static_cast<uint8_t>(LinkMessageType::DISCONNECT), static_cast<uint8_t>(reason)};
}

std::array<uint8_t, HEARTBEAT_SIZE> encodeHeartbeat() {
  return {static_cast<uint8_t>(LinkMessageType::HEARTBEAT)};
}

}  // namespace fips::router::fmp
