// SPDX-License-Identifier: MIT
// The UDP transport: one bound socket drained with recvmmsg into batches for
// the router, and router batches sent with sendmmsg. Runs in
// fips-transport-udp. Pipeline: kernel → recvmmsg (batchSize datagrams) →
// one TransportEvent.datagrams message → router; router → one
// TransportRequest.send message → sendmmsg. Payloads are opaque FMP frames:
// the worker never sees keys or plaintext.
#pragma once

#include <cstdint>
#include <memory>
#include <sys/socket.h>
#include <vector>

#include "privsep/channel.h"
#include "privsep/libevent.h"
#include "privsep/socket-address.h"

#include "lib/unique-fd.h"
#include "supervisor.capnp.h"
#include "transport.capnp.h"
#include "transports/udp/host-resolver.h"
#include "transports/udp/path-mtu.h"
#include "transports/worker/datagram-batcher.h"

namespace fips::transport {

// Counters reported to the router in TransportEvent.stats.
struct UdpCounters {
  uint64_t rxDatagrams = 0;
  uint64_t txDatagrams = 0;
  uint64_t kernelDrops = 0;  // SO_RXQ_OVFL: datagrams the kernel dropped
  uint64_t sendErrors = 0;
  uint64_t probeErrors = 0;  // path MTU probes the kernel refused (above the interface MTU)
};

// One UDP socket and its event. Not copyable or movable.
class UdpTransport {
 public:
  explicit UdpTransport(privsep::EventBase& base);
  UdpTransport(const UdpTransport&) = delete;
  UdpTransport& operator=(const UdpTransport&) = delete;

  // Creates and binds the socket per the slice (bindAddr, buffer sizes in
  // bytes), fills `bound`. Throws std::runtime_error naming the address.
  void open(schema::TransportConfig::Reader slice, schema::TransportEvent::Bound::Builder bound);
  // Starts reading; batches and stats (once per second) go to `router`.
  void start(privsep::Channel& router);
  // Sends one batch; datagrams with an unusable endpoint are counted as
  // send errors.
  void send(capnp::List<schema::Datagram>::Reader batch);
  // Looks up a peer's host name off the loop; the answer goes to the router
  // as TransportEvent.resolved. A name that is not a valid host name, port
  // 0 or more than MAX_RESOLVES_IN_FLIGHT outstanding is fatal (the router
  // broke the channel's contract).
  void resolve(schema::TransportRequest::Resolve::Reader request);

 private:
  static void onReadable(evutil_socket_t, short, void* arg);
  static void onStatsTimer(evutil_socket_t, short, void* arg);
  void drain();
  void forward(size_t count);
  size_t gsoRun(const std::vector<size_t>& valid, size_t k, const std::vector<iovec>& iovs,
                const std::vector<privsep::SocketAddress>& peers) const;
  void sendAll(std::vector<mmsghdr>& msgs, const std::vector<size_t>& counts);
  void resendSingly(const mmsghdr& gsoMessage);
  void sendProbe(const privsep::SocketAddress& peer, iovec& iov);
  bool exceedsPathMtu(const mmsghdr& message);
  void noteKernelDrops(msghdr& hdr);
  void onResolved(ResolveAnswer answer);

  // Receive buffers for one recvmmsg batch, allocated once in start().
  struct RxBatch {
    std::vector<std::vector<uint8_t>> buffers;
    std::vector<iovec> iovs;
    std::vector<sockaddr_storage> peers;
    std::vector<mmsghdr> msgs;
    std::vector<uint8_t> controls;
  };

  privsep::EventBase& base_;
  RxBatch rx_;
  UniqueFd socket_;
  privsep::Channel* router_ = nullptr;
  std::unique_ptr<DatagramBatcher> batcher_;
  privsep::EventPtr readEvent_;
  privsep::EventPtr statsTimer_;
  std::unique_ptr<HostResolver> resolver_;
  std::unique_ptr<KernelPathMtu> kernelMtu_;  // made in open(), before the sandbox
  PathMtuReportLimiter mtuReports_;
  size_t resolvesInFlight_ = 0;
  uint16_t batchSize_ = 32;
  bool paused_ = false;
  bool gso_ = false;  // UDP_SEGMENT works on this socket  // reading stopped until the router
                      // channel drains
  uint16_t mtu_ = 1280;
  int family_ = AF_INET;  // of the bound socket
  UdpCounters counters_;
};

}  // namespace fips::transport
