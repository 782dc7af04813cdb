// SPDX-License-Identifier: MIT
// The link path with the worker<->router hop, as fips-router and
// fips-transport-udp run it: each node is a router process (LinkManager +
// the real TransportSet) and a worker process (the real UdpTransport), joined
// by a SOCK_SEQPACKET privsep::Channel carrying TransportEvent.datagrams and
// TransportRequest.send batches (privsep/schema/transport.capnp). What is
// left out: the supervisor, privilege drop and seccomp. Developer tool.
//
// Pipeline, sender node → receiver node:
//   router A: sendLinkMessage × 32 → seal → TransportSet::queue (copy) →
//             flush: one capnp TransportRequest.send → Channel (sendmsg)
//   worker A: Channel read → UdpTransport::send → sendmmsg
//   worker B: recvmmsg (32) → one capnp TransportEvent.datagrams → Channel
//   router B: Channel read → TransportSet → onDatagram per datagram → open
//             → LinkIo::onLinkMessage → counted
// The channel queues without bound, so router A produces a burst only while
// its channel socket is writable (poll POLLOUT on a dup of its end).
#pragma once

#include <cstddef>
#include <cstdint>

#include "lib/unique-fd.h"
#include "tests/bench/link/bench-node.h"

namespace fips::bench {

// A transport worker: binds 127.0.0.1:port, sets `readyBit` once bound, and
// serves `channel` until killed.
[[noreturn]] void runHopWorker(UniqueFd channel, uint16_t port, uint32_t readyBit, int bufBytes,
                               SharedCounters& shared);

// A router: waits until both workers are bound, then runs the node over
// `channel` until killed.
[[noreturn]] void runHopRouter(NodeSpec spec, size_t frameBytes, UniqueFd channel,
                               SharedCounters& shared);

}  // namespace fips::bench
