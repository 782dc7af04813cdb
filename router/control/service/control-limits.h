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
  // Traversal limit per RPC message, both ways: capnp's two-party network
  // also refuses to send a message above it. The largest reply is
  // statsAllHistory over the 1 h ring at 1 s (every node metric, about 36 Ki
  // words; stats-queries-test checks it fits); a request is far smaller.
  uint64_t messageWords = 64 * 1024;
  kj::Duration silenceTimeout = 5 * kj::SECONDS;  // the first byte must come within it
  kj::Duration idleTimeout = 60 * kj::SECONDS;    // then some byte within every such period
  // node.control.json_compat: a connection whose first byte starts a JSON
  // line ('{' or whitespace) speaks the reference's JSON-line protocol
  // (json/session.h) instead of Cap'n Proto RPC. Off: a first byte '{' is
  // answered with one error line saying how to turn it on (refuseJsonLine).
  bool jsonCompat = false;
};

}  // namespace fips::router::control
