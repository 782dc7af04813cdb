// SPDX-License-Identifier: MIT
// fips-tun-helper: the one privileged helper. Started by `fips` (as root)
// with its supervisor channel on fd 3 and its router channel on fd 4.
// Acquire (create and configure the TUN), drop (to the node user with only
// CAP_NET_ADMIN+CAP_NET_RAW, no_new_privs), sandbox (seccomp), loop: see
// HelperDaemon::onConfigure. It never reads packets.
#include <exception>
#include <sys/prctl.h>

#include "privsep/libevent.h"
#include "privsep/log.h"

#include "tun-helper/helper-daemon.h"

int main() {
  ::prctl(PR_SET_NAME, "fips-tun-helper");
  fips::privsep::initLogging("tun-helper", fips::privsep::effectiveLogLevel(spdlog::level::info));
  try {
    fips::privsep::EventBase base;
    fips::tunhelper::HelperDaemon daemon(base);
    base.dispatch();
    return daemon.exitStatus();
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
}
