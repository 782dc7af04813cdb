// SPDX-License-Identifier: MIT
// The hop-free link path of bench-link (see direct-path.h). Runs in the
// benchmark's node processes.
#include "tests/bench/link/direct-path.h"

#include <arpa/inet.h>
#include <cstring>
#include <stdexcept>

#include "tests/bench/link/udp-batch.h"

namespace fips::bench {

namespace {

constexpr uint32_t TRANSPORT_ID = 1;
constexpr int RECEIVE_TIMEOUT_MS = 50;

sockaddr_in toSockaddr(const router::link::TransportAddr& to) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  std::memcpy(&a.sin_addr.s_addr, to.ip.data(), 4);
  a.sin_port = htons(to.port);
  return a;
}

router::link::TransportAddr fromSockaddr(const sockaddr_in& from) {
  const auto* ip = reinterpret_cast<const uint8_t*>(&from.sin_addr.s_addr);
  auto addr = router::link::TransportAddr::make(TRANSPORT_ID, std::span<const uint8_t>(ip, 4),
                                                ntohs(from.sin_port));
  if (!addr) throw std::logic_error("IPv4 address rejected");
  return *addr;
}

}  // namespace

void runDirectNode(NodeSpec spec, size_t frameBytes, int fd, bool offload, SharedCounters& shared) {
  const bool sender = spec.dialKey.has_value();
  TxBatch tx(fd, offload);
  RxBatch rx(fd, offload);
  setReceiveTimeout(fd, RECEIVE_TIMEOUT_MS);
  BenchNode node(std::move(spec), frameBytes, shared,
                 [&](const router::link::TransportAddr& to, std::span<const uint8_t> packet) {
                   tx.queue(toSockaddr(to), packet);
                 });
  node.start();
  tx.flush();
  for (;;) {
    // The sender only waits while it has no link to send on.
    rx.receive(!sender || !node.linkUp());
    rx.forEach([&](const sockaddr_in& from, std::span<const uint8_t> packet) {
      node.onDatagram(fromSockaddr(from), packet);
    });
    node.service();
    if (sender) node.sendFrames(BATCH);
    tx.flush();
  }
}

}  // namespace fips::bench
