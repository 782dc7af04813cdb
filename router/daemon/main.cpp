// SPDX-License-Identifier: MIT
// fips-router: the protocol core's process. Started by `fips` with its
// supervisor channel on fd 3 and the tun-helper channel on fd 4. Acquire
// (config slice, identity, TUN fd), drop (user, capabilities,
// no_new_privs), sandbox (seccomp), loop: see RouterDaemon::onConfigure.
#include <csignal>
#include <cstdio>
#include <exception>
#include <sys/prctl.h>

#include "privsep/fd-layout.h"
#include "privsep/libevent.h"
#include "privsep/log.h"
#include "privsep/supervisor-link.h"

#include "router/daemon/router-daemon.h"

int main() {
  ::prctl(PR_SET_NAME, "fips-router");
  ::signal(SIGPIPE, SIG_IGN);  // a control client that hangs up is an error return, not a signal
  fips::privsep::initLogging("router", fips::privsep::effectiveLogLevel(spdlog::level::info));
  try {
    // Claim the tun-helper channel before anything can reuse fd 4.
    fips::UniqueFd tunChannel;
    if (fips::privsep::fdIsOpen(fips::privsep::PEER_CHANNEL_FD)) {
      tunChannel.reset(fips::privsep::PEER_CHANNEL_FD);
    }
    fips::privsep::EventBase base;
    fips::router::RouterDaemon daemon(base, std::move(tunChannel));
    base.dispatch();
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
  spdlog::info("stopped");
  return 0;
}
