// SPDX-License-Identifier: MIT
// Limits of the control service (stated in control.capnp's header). Used on
// the control thread of fips-router.
#pragma once

#include <cstddef>
#include <cstdint>

#include <kj/time.h>

namespace fips::router::control {

struct ControlLimits {
  size_t maxConnections = 256;
  uint64_t messageWords = 8 * 1024;               // traversal limit per RPC message
  kj::Duration silenceTimeout = 5 * kj::SECONDS;  // the first byte must come within it
  kj::Duration idleTimeout = 60 * kj::SECONDS;    // then some byte within every such period
  // node.control.json_compat: a connection whose first byte starts a JSON
  // line ('{' or whitespace) speaks the reference's JSON-line protocol
  // (json-session.h) instead of Cap'n Proto RPC. Off: a first byte '{' is
  // answered with one error line saying how to turn it on (refuseJsonLine).
  bool jsonCompat = false;
};

}  // namespace fips::router::control
