// SPDX-License-Identifier: MIT
// UDP socket, recvmmsg/sendmmsg batching (see udp-transport.h). Received
// datagrams are untrusted network input and are passed on unread.
#include "transports/udp/udp-transport.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdexcept>
#include <string>
#include <sys/socket.h>
#include <time.h>

#include <capnp/message.h>

#include "privsep/host-name.h"
#include "privsep/log.h"
#include "privsep/socket-address.h"

#include "transports/udp/path-mtu.h"

namespace fips::transport {

using privsep::fromEndpoint;
using privsep::parseSocketAddress;
using privsep::SocketAddress;
using privsep::toEndpoint;

namespace {

constexpr size_t MAX_DATAGRAM = 65535;
// Linux caps a GSO message at 64 segments and 64 KiB of UDP payload.
constexpr size_t MAX_GSO_SEGMENTS = 64;
constexpr size_t MAX_GSO_BYTES = 65000;
constexpr int MAX_BATCHES_PER_WAKEUP = 8;
constexpr timeval STATS_INTERVAL = {1, 0};
constexpr size_t CONTROL = CMSG_SPACE(sizeof(uint32_t));  // room for SO_RXQ_OVFL

void setIntOption(int fd, int level, int name, int value, const char* what) {
  if (::setsockopt(fd, level, name, &value, sizeof(value)) != 0) {
    throw std::runtime_error(std::string("setsockopt(") + what + "): " + std::strerror(errno));
  }
}

// SO_RCVBUFFORCE works while the worker is still root; otherwise the
// kernel caps the size at net.core.rmem_max.
void setBuffer(int fd, int forceName, int name, uint32_t bytes) {
  int value = static_cast<int>(bytes);
  if (::setsockopt(fd, SOL_SOCKET, forceName, &value, sizeof(value)) != 0) {
    ::setsockopt(fd, SOL_SOCKET, name, &value, sizeof(value));
  }
}

uint64_t monotonicMs() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000 + static_cast<uint64_t>(ts.tv_nsec) / 1000000;
}

}  // namespace

UdpTransport::UdpTransport(privsep::EventBase& base) : base_(base) {}

void UdpTransport::open(schema::TransportConfig::Reader slice,
                        schema::TransportEvent::Bound::Builder bound) {
  std::string bindText = slice.getBindAddr();
  auto address = parseSocketAddress(bindText);
  if (!address) throw std::runtime_error("bind address '" + bindText + "' is not address:port");
  batchSize_ = slice.getBatchSize() == 0 ? 32 : slice.getBatchSize();
  mtu_ = slice.getMtu();
  family_ = address->family();
  socket_.reset(::socket(family_, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!socket_) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  if (address->family() == AF_INET6) {
    setIntOption(socket_.get(), IPPROTO_IPV6, IPV6_V6ONLY, 0, "IPV6_V6ONLY");
  }
  setBuffer(socket_.get(), SO_RCVBUFFORCE, SO_RCVBUF, slice.getRecvBufSize());
  setBuffer(socket_.get(), SO_SNDBUFFORCE, SO_SNDBUF, slice.getSendBufSize());
  setIntOption(socket_.get(), SOL_SOCKET, SO_RXQ_OVFL, 1, "SO_RXQ_OVFL");
  allowFragmentation(socket_.get(), family_);
  kernelMtu_ = std::make_unique<KernelPathMtu>();
  // UDP GSO where the kernel has it (Linux >= 4.18); per-message segment
  // sizes are given in send(), this only probes for support.
  int noSegment = 0;
  gso_ = ::setsockopt(socket_.get(), SOL_UDP, UDP_SEGMENT, &noSegment, sizeof(noSegment)) == 0;
  if (::bind(socket_.get(), reinterpret_cast<const sockaddr*>(&address->storage),
             address->length) != 0) {
    throw std::runtime_error("bind " + bindText + ": " + std::strerror(errno));
  }
  SocketAddress local;
  local.length = sizeof(local.storage);
  ::getsockname(socket_.get(), reinterpret_cast<sockaddr*>(&local.storage), &local.length);
  toEndpoint(local, bound.initLocal(1)[0]);
  spdlog::info("bound {}", bindText);
}

void UdpTransport::start(privsep::Channel& router) {
  router_ = &router;
  batcher_ = std::make_unique<DatagramBatcher>(router);
  resolver_ = std::make_unique<HostResolver>(base_, family_,
                                             [this](ResolveAnswer a) { onResolved(std::move(a)); });
  const size_t n = batchSize_;
  rx_.buffers.assign(n, std::vector<uint8_t>(MAX_DATAGRAM));
  rx_.iovs.resize(n);
  rx_.peers.resize(n);
  rx_.msgs.resize(n);
  rx_.controls.resize(n * CONTROL);
  readEvent_.reset(
      event_new(base_.get(), socket_.get(), EV_READ | EV_PERSIST, &UdpTransport::onReadable, this));
  statsTimer_.reset(event_new(base_.get(), -1, EV_PERSIST, &UdpTransport::onStatsTimer, this));
  event_add(readEvent_.get(), nullptr);
  event_add(statsTimer_.get(), &STATS_INTERVAL);
  router.setOnDrained([this] {
    if (!paused_) return;
    paused_ = false;
    event_add(readEvent_.get(), nullptr);
    drain();
  });
}

void UdpTransport::resolve(schema::TransportRequest::Resolve::Reader request) {
  const std::string host = request.getHost();
  if (!privsep::isValidHostName(host) || request.getPort() == 0) {
    privsep::fatal("worker<-router: resolve request for an invalid host name or port 0");
  }
  if (resolvesInFlight_ >= privsep::MAX_RESOLVES_IN_FLIGHT) {
    privsep::fatal("worker<-router: more than {} resolve requests in flight",
                   privsep::MAX_RESOLVES_IN_FLIGHT);
  }
  ++resolvesInFlight_;
  resolver_->resolve(request.getId(), host, request.getPort());
}

void UdpTransport::onResolved(ResolveAnswer answer) {
  --resolvesInFlight_;
  capnp::MallocMessageBuilder msg;
  auto resolved = msg.initRoot<schema::TransportEvent>().initResolved();
  resolved.setId(answer.id);
  auto addrs = resolved.initAddrs(static_cast<unsigned>(answer.addrs.size()));
  for (size_t i = 0; i < answer.addrs.size(); ++i) {
    toEndpoint(answer.addrs[i], addrs[static_cast<unsigned>(i)]);
  }
  resolved.setError(answer.error);
  router_->send(msg);
}

void UdpTransport::onReadable(evutil_socket_t, short, void* arg) {
  static_cast<UdpTransport*>(arg)->drain();
}

// Up to MAX_BATCHES_PER_WAKEUP recvmmsg calls, one router message each.
void UdpTransport::drain() {
  // Backpressure: while the router has not taken what we sent, stop reading;
  // the kernel queues, then drops (counted by SO_RXQ_OVFL).
  if (batcher_->backlogged()) {
    event_del(readEvent_.get());
    paused_ = true;
    return;
  }
  const size_t n = batchSize_;
  auto& [buffers, iovs, peers, msgs, controls] = rx_;
  for (int round = 0; round < MAX_BATCHES_PER_WAKEUP; ++round) {
    for (size_t i = 0; i < n; ++i) {
      iovs[i] = {buffers[i].data(), buffers[i].size()};
      msgs[i] = {};
      msgs[i].msg_hdr.msg_iov = &iovs[i];
      msgs[i].msg_hdr.msg_iovlen = 1;
      msgs[i].msg_hdr.msg_name = &peers[i];
      msgs[i].msg_hdr.msg_namelen = sizeof(sockaddr_storage);
      msgs[i].msg_hdr.msg_control = controls.data() + i * CONTROL;
      msgs[i].msg_hdr.msg_controllen = CONTROL;
    }
    int got =
        ::recvmmsg(socket_.get(), msgs.data(), static_cast<unsigned>(n), MSG_DONTWAIT, nullptr);
    if (got <= 0) return;
    forward(static_cast<size_t>(got));
    if (static_cast<size_t>(got) < n) return;
  }
}

// Hands the first `count` received datagrams to the router, batched.
void UdpTransport::forward(size_t count) {
  auto& [buffers, iovs, peers, msgs, controls] = rx_;
  for (size_t i = 0; i < count; ++i) {
    SocketAddress peer;
    std::memcpy(&peer.storage, &peers[i], sizeof(sockaddr_storage));
    peer.length = msgs[i].msg_hdr.msg_namelen;
    batcher_->add(peer, std::span<const uint8_t>(buffers[i].data(), msgs[i].msg_len));
    noteKernelDrops(msgs[i].msg_hdr);
  }
  counters_.rxDatagrams += count;
  batcher_->flush();
}

void UdpTransport::noteKernelDrops(msghdr& hdr) {
  for (cmsghdr* c = CMSG_FIRSTHDR(&hdr); c != nullptr; c = CMSG_NXTHDR(&hdr, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL) {
      uint32_t drops;
      std::memcpy(&drops, CMSG_DATA(c), sizeof(drops));
      counters_.kernelDrops = drops;
    }
  }
}

// Pipeline of send(): the batch's datagrams are checked, path MTU probes
// go out at once unfragmented, then runs of consecutive datagrams to the
// same peer with one segment size (the last may be shorter) become one UDP
// GSO message (UDP_SEGMENT), everything else one message each; all go out
// in sendmmsg calls. A run refused because its segments exceed the
// kernel's path MTU (EMSGSIZE, or EINVAL from the GSO size check) is resent
// datagram by datagram (the kernel fragments them) and the path MTU is
// reported to the router; a kernel or device that refuses GSO otherwise
// (EIO, EINVAL) turns it off for good.
void UdpTransport::send(capnp::List<schema::Datagram>::Reader batch) {
  const size_t n = batch.size();
  std::vector<iovec> iovs(n);
  std::vector<SocketAddress> peers(n);
  std::vector<size_t> valid;
  valid.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    auto peer = fromEndpoint(batch[i].getPeer());
    auto payload = batch[i].getPayload();
    if (!peer || payload.size() > MAX_DATAGRAM || payload.size() == 0) {
      ++counters_.sendErrors;
      continue;
    }
    peers[i] = *peer;
    iovs[i] = {const_cast<kj::byte*>(payload.begin()), payload.size()};
    if (batch[i].getProbe()) {
      sendProbe(peers[i], iovs[i]);
      continue;
    }
    valid.push_back(i);
  }
  std::vector<mmsghdr> msgs;
  std::vector<std::array<char, CMSG_SPACE(sizeof(uint16_t))>> controls(valid.size());
  std::vector<size_t> counts;  // datagrams carried by each message
  msgs.reserve(valid.size());
  for (size_t k = 0; k < valid.size();) {
    const size_t first = valid[k];
    size_t run = 1;
    if (gso_) run = gsoRun(valid, k, iovs, peers);
    mmsghdr m{};
    m.msg_hdr.msg_name = &peers[first].storage;
    m.msg_hdr.msg_namelen = peers[first].length;
    m.msg_hdr.msg_iov = &iovs[first];
    m.msg_hdr.msg_iovlen = run;
    if (run > 1) {
      auto& control = controls[msgs.size()];
      m.msg_hdr.msg_control = control.data();
      m.msg_hdr.msg_controllen = control.size();
      cmsghdr* c = CMSG_FIRSTHDR(&m.msg_hdr);
      c->cmsg_level = SOL_UDP;
      c->cmsg_type = UDP_SEGMENT;
      c->cmsg_len = CMSG_LEN(sizeof(uint16_t));
      const auto segment = static_cast<uint16_t>(iovs[first].iov_len);
      std::memcpy(CMSG_DATA(c), &segment, sizeof(segment));
    }
    msgs.push_back(m);
    counts.push_back(run);
    k += run;
  }
  sendAll(msgs, counts);
}

// How many datagrams from valid[k] on can share one GSO message: same peer,
// consecutive in the batch, same size (the last may be shorter), at most
// MAX_GSO_SEGMENTS and MAX_GSO_BYTES in all.
size_t UdpTransport::gsoRun(const std::vector<size_t>& valid, size_t k,
                            const std::vector<iovec>& iovs,
                            const std::vector<SocketAddress>& peers) const {
  const size_t first = valid[k];
  const size_t segment = iovs[first].iov_len;
  size_t run = 1;
  size_t bytes = segment;
  while (k + run < valid.size() && run < MAX_GSO_SEGMENTS) {
    const size_t next = valid[k + run];
    const size_t len = iovs[next].iov_len;
    if (next != first + run || len > segment || bytes + len > MAX_GSO_BYTES ||
        peers[next].length != peers[first].length ||
        std::memcmp(&peers[next].storage, &peers[first].storage, peers[first].length) != 0) {
      break;
    }
    bytes += len;
    ++run;
    if (len < segment) break;  // a shorter segment ends the run
  }
  return run;
}

void UdpTransport::sendAll(std::vector<mmsghdr>& msgs, const std::vector<size_t>& counts) {
  size_t done = 0;
  while (done < msgs.size()) {
    int sent = ::sendmmsg(socket_.get(), msgs.data() + done,
                          static_cast<unsigned>(msgs.size() - done), MSG_DONTWAIT);
    if (sent > 0) {
      for (size_t i = done; i < done + static_cast<size_t>(sent); ++i) {
        counters_.txDatagrams += counts[i];
      }
      done += static_cast<size_t>(sent);
      continue;
    }
    const int error = errno;
    if (counts[done] > 1 && (error == EIO || error == EINVAL || error == EMSGSIZE)) {
      const bool aboveMtu = error != EIO && exceedsPathMtu(msgs[done]);
      if (!aboveMtu && error != EMSGSIZE) {
        spdlog::warn("UDP GSO refused ({}): sending datagram by datagram", std::strerror(error));
        gso_ = false;
      }
      resendSingly(msgs[done]);
    } else if (error == EMSGSIZE) {
      exceedsPathMtu(msgs[done]);
      ++counters_.sendErrors;
    } else {
      // Unreachable peer, full buffer: that message is lost.
      counters_.sendErrors += counts[done];
    }
    ++done;
  }
}

void UdpTransport::resendSingly(const mmsghdr& gsoMessage) {
  for (size_t i = 0; i < gsoMessage.msg_hdr.msg_iovlen; ++i) {
    msghdr one{};
    one.msg_name = gsoMessage.msg_hdr.msg_name;
    one.msg_namelen = gsoMessage.msg_hdr.msg_namelen;
    one.msg_iov = &gsoMessage.msg_hdr.msg_iov[i];
    one.msg_iovlen = 1;
    if (::sendmsg(socket_.get(), &one, MSG_DONTWAIT) < 0) {
      ++counters_.sendErrors;
    } else {
      ++counters_.txDatagrams;
    }
  }
}

void UdpTransport::sendProbe(const SocketAddress& peer, iovec& iov) {
  msghdr one{};
  one.msg_name = const_cast<sockaddr_storage*>(&peer.storage);
  one.msg_namelen = peer.length;
  one.msg_iov = &iov;
  one.msg_iovlen = 1;
  if (sendUnfragmented(socket_.get(), family_, one) < 0) {
    ++counters_.probeErrors;  // above the interface MTU: the router sees it unanswered
  } else {
    ++counters_.txDatagrams;
  }
}

// Whether the first segment of message is larger than the kernel's path MTU
// to its peer; if so, the router hears that path MTU (rate-limited).
bool UdpTransport::exceedsPathMtu(const mmsghdr& message) {
  SocketAddress peer;
  std::memcpy(&peer.storage, message.msg_hdr.msg_name, message.msg_hdr.msg_namelen);
  peer.length = message.msg_hdr.msg_namelen;
  const auto mtu = kernelMtu_->of(peer);
  if (!mtu || message.msg_hdr.msg_iov[0].iov_len <= *mtu) return false;
  if (mtuReports_.allow(peer, *mtu, monotonicMs())) {
    capnp::MallocMessageBuilder msg;
    auto event = msg.initRoot<schema::TransportEvent>().initPathMtu();
    toEndpoint(peer, event.initPeer());
    event.setMtu(*mtu);
    router_->send(msg);
  }
  return true;
}

void UdpTransport::onStatsTimer(evutil_socket_t, short, void* arg) {
  auto* self = static_cast<UdpTransport*>(arg);
  capnp::MallocMessageBuilder msg;
  auto stats = msg.initRoot<schema::TransportEvent>().initStats();
  stats.setRxDatagrams(self->counters_.rxDatagrams);
  stats.setTxDatagrams(self->counters_.txDatagrams);
  stats.setKernelDrops(self->counters_.kernelDrops);
  stats.setSendErrors(self->counters_.sendErrors);
  self->router_->send(msg);
}

}  // namespace fips::transport
