// SPDX-License-Identifier: MIT
// Forking and wiring of each measured path of bench-link (see runs.h). Runs
// in the benchmark's controller; the bodies run in its children.
#include "tests/bench/link/runs.h"

#include <arpa/inet.h>
#include <stdexcept>
#include <unistd.h>
#include <variant>

#include "privsep/channel.h"

#include "lib/crypto/rng.h"
#include "tests/bench/link/direct-path.h"
#include "tests/bench/link/hop-path.h"
#include "tests/bench/link/raw-probes.h"

namespace fips::bench {

namespace {

constexpr int RECEIVER_CPU = 0;

int senderCpu() {
  return ::sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
}

crypto::SecretKey generate(const crypto::Secp256k1Context& ctx) {
  crypto::OpenSslRng rng;
  auto key = crypto::SecretKey::generate(ctx, rng);
  if (!key) throw std::runtime_error("no randomness for a node key");
  return std::move(*key);
}

NodeSpec senderSpec(const NodeKeys& keys, uint16_t receiverPort) {
  const uint8_t ip[4] = {127, 0, 0, 1};
  return NodeSpec{keys.sender.clone(), keys.receiver.publicKey(),
                  *router::link::TransportAddr::make(1, ip, receiverPort)};
}

NodeSpec receiverSpec(const NodeKeys& keys) {
  return NodeSpec{keys.receiver.clone(), {}, {}};
}

}  // namespace

NodeKeys::NodeKeys() : sender(generate(ctx)), receiver(generate(ctx)) {}

Sample runRaw(size_t bytes, bool offload, const Window& window) {
  SharedPage page;
  SharedCounters& shared = page.counters();
  const UniqueFd rx = loopbackUdpSocket(UDP_BUFFER_BYTES);
  const UniqueFd tx = loopbackUdpSocket(UDP_BUFFER_BYTES);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  to.sin_port = htons(localPort(rx.get()));
  const pid_t receiver = spawn(shared, [&] {
    pinToCpu(RECEIVER_CPU);
    runRawReceiver(rx.get(), offload, shared);
  });
  const pid_t sender = spawn(shared, [&] {
    pinToCpu(senderCpu());
    runRawSender(tx.get(), to, bytes, offload, shared);
  });
  return sampleRun(shared, {receiver}, {sender}, window.warmupSecs, window.secs);
}

Sample runDirect(const NodeKeys& keys, size_t bytes, bool offload, const Window& window) {
  SharedPage page;
  SharedCounters& shared = page.counters();
  const UniqueFd rx = loopbackUdpSocket(UDP_BUFFER_BYTES);
  const UniqueFd tx = loopbackUdpSocket(UDP_BUFFER_BYTES);
  const uint16_t port = localPort(rx.get());
  const pid_t receiver = spawn(shared, [&] {
    pinToCpu(RECEIVER_CPU);
    runDirectNode(receiverSpec(keys), bytes, rx.get(), offload, shared);
  });
  const pid_t sender = spawn(shared, [&] {
    pinToCpu(senderCpu());
    runDirectNode(senderSpec(keys, port), bytes, tx.get(), offload, shared);
  });
  return sampleRun(shared, {receiver}, {sender}, window.warmupSecs, window.secs);
}

Sample runHop(const NodeKeys& keys, size_t bytes, const Window& window) {
  SharedPage page;
  SharedCounters& shared = page.counters();
  uint16_t senderPort = 0;
  uint16_t receiverPort = 0;
  {
    // Two distinct free ports, released for the workers to bind.
    const UniqueFd a = loopbackUdpSocket(4096);
    const UniqueFd b = loopbackUdpSocket(4096);
    senderPort = localPort(a.get());
    receiverPort = localPort(b.get());
  }
  auto [senderRouterEnd, senderWorkerEnd] = privsep::makeChannelPair();
  auto [receiverRouterEnd, receiverWorkerEnd] = privsep::makeChannelPair();
  std::vector<pid_t> receiverSide;
  std::vector<pid_t> senderSide;
  receiverSide.push_back(spawn(shared, [&] {
    pinToCpu(RECEIVER_CPU);
    runHopWorker(std::move(receiverWorkerEnd), receiverPort, READY_WORKER_B, UDP_BUFFER_BYTES,
                 shared);
  }));
  receiverSide.push_back(spawn(shared, [&] {
    pinToCpu(RECEIVER_CPU);
    runHopRouter(receiverSpec(keys), bytes, std::move(receiverRouterEnd), shared);
  }));
  senderSide.push_back(spawn(shared, [&] {
    pinToCpu(senderCpu());
    runHopWorker(std::move(senderWorkerEnd), senderPort, READY_WORKER_A, UDP_BUFFER_BYTES, shared);
  }));
  senderSide.push_back(spawn(shared, [&] {
    pinToCpu(senderCpu());
    runHopRouter(senderSpec(keys, receiverPort), bytes, std::move(senderRouterEnd), shared);
  }));
  return sampleRun(shared, receiverSide, senderSide, window.warmupSecs, window.secs);
}

}  // namespace fips::bench
