// SPDX-License-Identifier: MIT
// fips-transport-udp: the UDP transport worker. Started by `fips` with its
// supervisor channel on fd 3 and its router channel on fd 4. Acquire (bind
// the socket), drop (user, capabilities, no_new_privs), sandbox (seccomp),
// loop: the sequence is in TransportWorker::onConfigure.
#include <exception>
#include <sys/prctl.h>

#include "privsep/libevent.h"
#include "privsep/log.h"

#include "transports/udp/udp-transport.h"
#include "transports/worker/transport-worker.h"

int main() {
  ::prctl(PR_SET_NAME, "fips-udp");
  fips::privsep::initLogging("udp", fips::privsep::effectiveLogLevel(spdlog::level::info));
  try {
    fips::privsep::EventBase base;
    fips::transport::UdpTransport udp(base);
    fips::transport::TransportWorker* workerPtr = nullptr;
    fips::transport::TransportWorker worker(
        base, {
                  [&](auto slice, auto bound) { udp.open(slice, bound); },
                  [&] { udp.start(workerPtr->router()); },
                  [&](auto batch) { udp.send(batch); },
                  [&](auto request) { udp.resolve(request); },
              });
    workerPtr = &worker;
    base.dispatch();
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
  spdlog::info("stopped");
  return 0;
}
