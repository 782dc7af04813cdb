// SPDX-License-Identifier: MIT
// The link path with the worker<->router hop short-circuited: one process per
// node owns both the LinkManager and the UDP socket, batching with
// sendmmsg/recvmmsg (or GSO/GRO) in its own small loop. Developer tool;
// datagrams come from the other benchmark node.
//
// Pipeline per node, sequential in one process:
//   sender:   LinkManager::sendLinkMessage × 32 → seal → TxBatch (copy) →
//             one sendmmsg; between bursts a non-blocking recvmmsg feeds
//             replies (msg2, heartbeats, rekey messages) to the engine.
//   receiver: recvmmsg (waits, 50 ms timeout for timers) → onDatagram per
//             datagram → open → LinkIo::onLinkMessage → counted; replies
//             leave in one sendmmsg after the batch.
#pragma once

#include <cstddef>

#include "tests/bench/link/bench-node.h"

namespace fips::bench {

// Runs one node on `fd` (already bound) until killed; with `offload`, sends
// with UDP_SEGMENT and receives with UDP_GRO.
[[noreturn]] void runDirectNode(NodeSpec spec, size_t frameBytes, int fd, bool offload,
                                SharedCounters& shared);

}  // namespace fips::bench
