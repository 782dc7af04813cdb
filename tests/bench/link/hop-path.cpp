// SPDX-License-Identifier: MIT
// The link path through transport workers (see hop-path.h). Runs in the
// benchmark's router and worker processes; channel messages come from the
// benchmark's own processes and are checked by the real Channel limits.
#include "tests/bench/link/hop-path.h"

#include <chrono>
#include <poll.h>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>

#include <capnp/message.h>

#include "privsep/channel.h"
#include "privsep/libevent.h"

#include "router/transports/transport-set.h"
#include "supervisor.capnp.h"
#include "tests/bench/link/udp-batch.h"
#include "transport.capnp.h"
#include "transports/udp/udp-transport.h"

namespace fips::bench {

namespace {

constexpr uint32_t BOTH_WORKERS = READY_WORKER_A | READY_WORKER_B;
constexpr int IDLE_WAIT_MS = 50;

// The limits the real worker puts on what the router sends it.
privsep::ChannelLimits workerSideLimits() {
  privsep::ChannelLimits limits;
  limits.maxBytes = 256 * 1024;
  limits.maxFds = 0;
  limits.traversalWords = 64 * 1024;
  return limits;
}

// True if `events` became ready on fd within timeoutMs.
bool waitFor(int fd, short events, int timeoutMs) {
  pollfd p{fd, events, 0};
  return ::poll(&p, 1, timeoutMs) > 0 && (p.revents & events) != 0;
}

}  // namespace

void runHopWorker(UniqueFd channel, uint16_t port, uint32_t readyBit, int bufBytes,
                  SharedCounters& shared) {
  privsep::EventBase base;
  transport::UdpTransport udp(base);
  capnp::MallocMessageBuilder config;
  auto slice = config.initRoot<schema::TransportConfig>();
  slice.setType("udp");
  slice.setBindAddr("127.0.0.1:" + std::to_string(port));
  slice.setRecvBufSize(static_cast<uint32_t>(bufBytes));
  slice.setSendBufSize(static_cast<uint32_t>(bufBytes));
  slice.setMtu(1500);
  slice.setBatchSize(BATCH);
  privsep::Channel router(
      base, std::move(channel), "worker<-router", workerSideLimits(),
      [&](capnp::MessageReader& r, std::vector<UniqueFd>&) {
        udp.send(r.getRoot<schema::TransportRequest>().getSend());
      },
      [&] { base.loopExit(); });
  capnp::MallocMessageBuilder bound;
  auto event = bound.initRoot<schema::TransportEvent>().initBound();
  event.setType("udp");
  udp.open(slice.asReader(), event);
  router.send(bound);
  udp.start(router);
  shared.ready.fetch_or(readyBit);
  base.dispatch();
  throw std::runtime_error("worker: router channel closed");
}

void runHopRouter(NodeSpec spec, size_t frameBytes, UniqueFd channel, SharedCounters& shared) {
  const bool sender = spec.dialKey.has_value();
  privsep::EventBase base;
  BenchNode* nodePtr = nullptr;
  router::TransportSet transports(
      base, [&](const router::link::TransportAddr& from, std::span<const uint8_t> payload) {
        nodePtr->onDatagram(from, payload);
      });
  spec.dialAddr.transportId = transports.idFor("udp");
  // A second descriptor of the router's end, to poll it for room.
  const UniqueFd watch(::dup(channel.get()));
  if (!watch) throw std::runtime_error("dup of the channel fd failed");
  transports.attach("udp", std::move(channel));
  BenchNode node(std::move(spec), frameBytes, shared,
                 [&](const router::link::TransportAddr& to, std::span<const uint8_t> packet) {
                   transports.queue(to, packet);
                 });
  nodePtr = &node;
  while ((shared.ready.load() & BOTH_WORKERS) != BOTH_WORKERS) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  event_base_loop(base.get(), EVLOOP_NONBLOCK);  // reads the worker's `bound`
  node.start();
  transports.flush();
  for (;;) {
    if (!sender) {
      event_base_loop(base.get(), EVLOOP_ONCE);
    } else {
      event_base_loop(base.get(), EVLOOP_NONBLOCK);
      if (!node.linkUp()) {
        waitFor(watch.get(), POLLIN, IDLE_WAIT_MS);
      } else if (waitFor(watch.get(), POLLOUT, 1)) {
        node.sendFrames(BATCH);
      }
    }
    node.service();
    transports.flush();
  }
}

}  // namespace fips::bench
