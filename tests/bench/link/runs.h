// SPDX-License-Identifier: MIT
// One measured run of bench-link per function: the processes of one path are
// forked (receiving node pinned to CPU 0, sending node to CPU 1, as
// udp_bench.c does), sampled over one window and killed. Developer tool; no
// external input.
#pragma once

#include <cstddef>

#include "lib/crypto/secp256k1-context.h"
#include "lib/crypto/secp256k1-keys.h"
#include "tests/bench/link/bench-proc.h"

namespace fips::bench {

// Socket buffers of every UDP socket in every path (fips.yaml's default
// recv_buf_size is 2 MiB).
inline constexpr int UDP_BUFFER_BYTES = 2 * 1024 * 1024;

// The two node identities, made once per benchmark. Not copyable.
struct NodeKeys {
  NodeKeys();
  crypto::Secp256k1Context ctx;
  crypto::SecretKey sender;
  crypto::SecretKey receiver;
};

// How long a run warms up before, and samples during, its window.
struct Window {
  double warmupSecs = 0.25;
  double secs = 1.0;
};

// Two processes, raw UDP on loopback: sendmmsg → recvmmsg, or with `offload`
// one UDP_SEGMENT sendmsg → UDP_GRO recvmmsg.
Sample runRaw(size_t bytes, bool offload, const Window& window);
// Two node processes, each LinkManager on its own UDP socket.
Sample runDirect(const NodeKeys& keys, size_t bytes, bool offload, const Window& window);
// Four processes: a router and a transport worker per node.
Sample runHop(const NodeKeys& keys, size_t bytes, const Window& window);

}  // namespace fips::bench
