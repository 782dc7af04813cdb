// SPDX-License-Identifier: MIT
// Names for the link engine's output events (see link-io.h). Runs in fips-router.
#include "router/link/link-io.h"

namespace fips::router::link {

const char* toString(LinkDownReason reason) {
  switch (reason) {
    case LinkDownReason::DEAD:
      return "dead";
    case LinkDownReason::REMOTE_DISCONNECT:
      return "remote_disconnect";
    case LinkDownReason::PEER_RESTART:
      return "peer_restart";
    case LinkDownReason::REMOVED:
      return "removed";
    case LinkDownReason::SHUTDOWN:
      return "shutdown";
  }
  return "unknown";
}

}  // namespace fips::router::link
