// SPDX-License-Identifier: MIT
// fips-transport-tcp: the TCP transport worker. Started by `fips` with its
// supervisor channel on fd 3 and its router channel on fd 4. Acquire (bind
// and listen), drop (user, capabilities, no_new_privs), sandbox (seccomp:
// stream sockets only), loop: the sequence is in
// TransportWorker::onConfigure.
#include <exception>
#include <sys/prctl.h>

#include "privsep/libevent.h"
#include "privsep/log.h"

#include "transports/tcp/tcp-transport.h"
#include "transports/worker/transport-worker.h"

int main() {
  ::prctl(PR_SET_NAME, "fips-tcp");
  fips::privsep::initLogging("tcp", fips::privsep::effectiveLogLevel(spdlog::level::info));
  try {
    fips::privsep::EventBase base;
    fips::transport::TcpTransport tcp(base);
    fips::transport::TransportWorker* workerPtr = nullptr;
    fips::transport::TransportWorker worker(
        base, {
                  [&](auto slice, auto bound) { tcp.open(slice, bound); },
                  [&] { tcp.start(workerPtr->router()); },
                  [&](auto batch) { tcp.send(batch); },
                  {},
                  fips::privsep::SeccompProfile::TRANSPORT_STREAM,
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
