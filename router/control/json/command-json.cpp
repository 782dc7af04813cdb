// SPDX-License-Identifier: MIT
// Connect answers as JSON and text (see command-json.h).
#include "router/control/json/command-json.h"

#include <fmt/format.h>

namespace fips::router::control::json {

std::string dialStateText(std::string_view state) {
  if (state == "handshake") return "handshake in progress";
  if (state == "retry_backoff") return "waiting to redial";
  if (state == "resolving") return "looking up its host name";
  return std::string(state);
}

std::string connectText(std::string_view npub, std::string_view address, std::string_view transport,
                        const ConnectAnswer& answer) {
  if (answer.alreadyConnected) {
    return fmt::format("already connected to {} at {} over {}; nothing to do", npub, address,
                       transport);
  }
  if (answer.alreadyConnecting) {
    return fmt::format("already connecting to {} ({}); nothing changed: {} was not dialed", npub,
                       dialStateText(answer.dialState), address);
  }
  return fmt::format(
      "connecting to {} at {} over {}{}", npub, address, transport,
      answer.dialState.empty() ? "" : fmt::format(" ({})", dialStateText(answer.dialState)));
}

Json connectJson(std::string_view npub, std::string_view address, std::string_view transport,
                 const ConnectAnswer& answer) {
  const bool dialed = !answer.alreadyConnecting;
  Json out{{"npub", npub},
           {"address", dialed ? Json(address) : Json(nullptr)},
           {"transport", dialed ? Json(transport) : Json(nullptr)},
           {"refreshed", answer.refreshed},
           {"already_connected", answer.alreadyConnected},
           {"already_connecting", answer.alreadyConnecting}};
  if (!answer.dialState.empty()) out["dial_state"] = answer.dialState;
  if (!dialed) out["message"] = connectText(npub, address, transport, answer);
  return out;
}

}  // namespace fips::router::control::json
