// SPDX-License-Identifier: MIT
// The answer to a connect command (control.capnp CommandResult, the
// JSON-line socket's connect), as JSON and as fipsctl's one line of text,
// built in one place so that `fipsctl connect --json`, its text and the
// JSON socket say the same. Pure functions; used by fipsctl and the
// router's control thread; the npub, address and transport are the
// client's request (untrusted text, only copied).
#pragma once

#include <string>
#include <string_view>

#include "router/control/json/json.h"

namespace fips::router::control::json {

// What the daemon answered a connect with (see CommandResult).
struct ConnectAnswer {
  bool refreshed = false;
  bool alreadyConnected = false;   // up on that address: nothing done
  bool alreadyConnecting = false;  // a dial was under way: nothing changed
  std::string dialState;           // "handshake", "retry_backoff", "resolving" or ""
};

// A dial state in words ("handshake" -> "handshake in progress").
std::string dialStateText(std::string_view state);

// The one line (no '\n') fipsctl prints: "connecting to NPUB at ADDRESS over
// TRANSPORT[ (state)]", "already connected to ...; nothing to do", or
// "already connecting to NPUB (state); nothing changed: ADDRESS was not
// dialed".
std::string connectText(std::string_view npub, std::string_view address, std::string_view transport,
                        const ConnectAnswer& answer);

// The reference's connect data {npub, address, transport, refreshed} plus
// already_connected, already_connecting and dial_state (when set). While a
// dial was already under way, address and transport are null (that dial's
// address is not the one asked for, which was not dialed) and "message"
// holds connectText's line.
Json connectJson(std::string_view npub, std::string_view address, std::string_view transport,
                 const ConnectAnswer& answer);

}  // namespace fips::router::control::json
