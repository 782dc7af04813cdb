// SPDX-License-Identifier: MIT
// The baselines bench-link prints next to the link: raw UDP between two
// processes (sendmmsg → recvmmsg batches of 32, or one UDP_SEGMENT send →
// UDP_GRO receive), the method of ../shared/tools/limits/udp_bench.c, and raw
// ChaCha20-Poly1305 seal+open through OpenSSL EVP (aead_bench.c). Developer
// tool; no external input.
#pragma once

#include <cstddef>
#include <netinet/in.h>

#include "tests/bench/link/bench-proc.h"

namespace fips::bench {

// Sends `bytes`-sized datagrams to `to` as fast as it can; never returns.
[[noreturn]] void runRawSender(int fd, const sockaddr_in& to, size_t bytes, bool gso,
                               SharedCounters& shared);
// Counts received datagrams (GRO segments one by one); never returns.
[[noreturn]] void runRawReceiver(int fd, bool gro, SharedCounters& shared);

// Seal+open pairs per CPU-second of this thread, for a frame of
// `frameBytes` (16-byte header as AAD, frameBytes - 32 bytes of plaintext,
// 16-byte tag); the median of 5 windows of secs / 5 of thread CPU time.
double aeadFramesPerSec(size_t frameBytes, double secs);

}  // namespace fips::bench
