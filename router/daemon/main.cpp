// SPDX-License-Identifier: MIT
// fips-router: the protocol core's process. Started by `fips` with its
// supervisor channel on fd 3 and the tun-helper channel on fd 4. Acquire
// (config slice, identity, TUN fd), drop (user, capabilities,
// no_new_privs), sandbox (seccomp), loop: see RouterDaemon::onConfigure.
#include <sys/prctl.h>

#include <cstdio>
#include <exception>

#include "privsep/libevent.h"
#include "privsep/log.h"
#include "router/daemon/router-daemon.h"

int main() {
  ::prctl(PR_SET_NAME, "fips-router");
  fips::privsep::initLogging("router", fips::privsep::effectiveLogLevel(spdlog::level::info));
  try {
    fips::privsep::EventBase base;
    fips::router::RouterDaemon daemon(base);
    base.dispatch();
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
  spdlog::info("stopped");
  return 0;
}
