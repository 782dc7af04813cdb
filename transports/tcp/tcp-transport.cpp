// SPDX-License-Identifier: MIT
// TCP connections, the listener, dial on first send, stream framing (see
// tcp-transport.h). Bytes read are untrusted network input: they only pass
// through the framer, and a connection that is not FMP is closed.
#include "transports/tcp/tcp-transport.h"

#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

#include <capnp/message.h>

#include "privsep/log.h"

namespace fips::transport {

using privsep::SocketAddress;

namespace {

constexpr timeval STATS_INTERVAL = {1, 0};
constexpr timeval ACCEPT_PAUSE = {1, 0};  // after EMFILE/ENFILE
constexpr int LISTEN_BACKLOG = 128;
constexpr int MAX_READS_PER_WAKEUP = 4;
constexpr size_t READ_CHUNK = 64 * 1024;

void setInt(int fd, int level, int name, int value) {
  ::setsockopt(fd, level, name, &value, sizeof(value));
}

// A map key for a peer: family, address bytes, port, scope.
std::string keyOf(const SocketAddress& a) {
  std::string key(1, static_cast<char>(a.family()));
  if (a.family() == AF_INET6) {
    const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(&a.storage);
    key.append(reinterpret_cast<const char*>(sin6->sin6_addr.s6_addr), 16);
    key.append(reinterpret_cast<const char*>(&sin6->sin6_port), 2);
    key.append(reinterpret_cast<const char*>(&sin6->sin6_scope_id), 4);
  } else {
    const auto* sin = reinterpret_cast<const sockaddr_in*>(&a.storage);
    key.append(reinterpret_cast<const char*>(&sin->sin_addr), 4);
    key.append(reinterpret_cast<const char*>(&sin->sin_port), 2);
  }
  return key;
}

// An IPv4-mapped IPv6 address (a dual-stack listener's IPv4 peer) as IPv4,
// so the router sees one address per peer whichever way it arrived.
SocketAddress unmapped(const SocketAddress& a) {
  if (a.family() != AF_INET6) return a;
  const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(&a.storage);
  if (!IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr)) return a;
  SocketAddress out;
  auto* sin = reinterpret_cast<sockaddr_in*>(&out.storage);
  sin->sin_family = AF_INET;
  sin->sin_port = sin6->sin6_port;
  std::memcpy(&sin->sin_addr, sin6->sin6_addr.s6_addr + 12, 4);
  out.length = sizeof(sockaddr_in);
  return out;
}

}  // namespace

// One TCP connection: its socket, events, framer and unsent bytes.
struct TcpTransport::Connection {
  TcpTransport* owner = nullptr;
  UniqueFd fd;
  SocketAddress peer;
  Key key;
  bool inbound = false;
  bool connecting = false;  // outbound, connect() not finished
  FmpStreamFramer framer;
  std::vector<uint8_t> out;  // unsent bytes from outStart on
  size_t outStart = 0;
  privsep::EventPtr readEvent;
  privsep::EventPtr writeEvent;
  privsep::EventPtr timer;  // connect deadline, or first-frame deadline (inbound)
  bool writeArmed = false;

  explicit Connection(uint16_t mtu) : framer(mtu, READ_CHUNK) {}
};

TcpTransport::TcpTransport(privsep::EventBase& base) : base_(base) {}

TcpTransport::~TcpTransport() = default;

void TcpTransport::open(schema::TransportConfig::Reader slice,
                        schema::TransportEvent::Bound::Builder bound) {
  mtu_ = slice.getMtu();
  connectTimeoutMs_ = slice.getConnectTimeoutMs();
  nodelay_ = slice.getNodelay();
  keepaliveSecs_ = slice.getKeepaliveSecs();
  recvBufSize_ = slice.getRecvBufSize();
  sendBufSize_ = slice.getSendBufSize();
  maxInbound_ = slice.getMaxInboundConnections();
  const std::string bindText = slice.getBindAddr();
  if (bindText.empty()) {
    bound.initLocal(0);
    spdlog::info("no bind_addr: outbound connections only");
    return;
  }
  auto address = privsep::parseSocketAddress(bindText);
  if (!address) throw std::runtime_error("bind address '" + bindText + "' is not address:port");
  listener_.reset(::socket(address->family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!listener_) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  setInt(listener_.get(), SOL_SOCKET, SO_REUSEADDR, 1);
  if (address->family() == AF_INET6) setInt(listener_.get(), IPPROTO_IPV6, IPV6_V6ONLY, 0);
  // Accepted connections inherit these; the FORCE forms work while root.
  int rcv = static_cast<int>(recvBufSize_);
  int snd = static_cast<int>(sendBufSize_);
  if (::setsockopt(listener_.get(), SOL_SOCKET, SO_RCVBUFFORCE, &rcv, sizeof(rcv)) != 0) {
    setInt(listener_.get(), SOL_SOCKET, SO_RCVBUF, rcv);
  }
  if (::setsockopt(listener_.get(), SOL_SOCKET, SO_SNDBUFFORCE, &snd, sizeof(snd)) != 0) {
    setInt(listener_.get(), SOL_SOCKET, SO_SNDBUF, snd);
  }
  if (::bind(listener_.get(), reinterpret_cast<const sockaddr*>(&address->storage),
             address->length) != 0) {
    throw std::runtime_error("bind " + bindText + ": " + std::strerror(errno));
  }
  if (::listen(listener_.get(), LISTEN_BACKLOG) != 0) {
    throw std::runtime_error("listen " + bindText + ": " + std::strerror(errno));
  }
  SocketAddress local;
  local.length = sizeof(local.storage);
  ::getsockname(listener_.get(), reinterpret_cast<sockaddr*>(&local.storage), &local.length);
  privsep::toEndpoint(local, bound.initLocal(1)[0]);
  spdlog::info("listening on {}", bindText);
}

void TcpTransport::start(privsep::Channel& router) {
  router_ = &router;
  batcher_ = std::make_unique<DatagramBatcher>(router);
  statsTimer_.reset(event_new(base_.get(), -1, EV_PERSIST, &TcpTransport::onStatsTimer, this));
  event_add(statsTimer_.get(), &STATS_INTERVAL);
  if (listener_) {
    acceptEvent_.reset(event_new(base_.get(), listener_.get(), EV_READ | EV_PERSIST,
                                 &TcpTransport::onAcceptable, this));
    acceptPause_.reset(event_new(base_.get(), -1, 0, &TcpTransport::onAcceptPause, this));
    event_add(acceptEvent_.get(), nullptr);
  }
  router.setOnDrained([this] {
    if (paused_) resumeReading();
  });
}

void TcpTransport::configure(int fd) const {
  setInt(fd, IPPROTO_TCP, TCP_NODELAY, nodelay_ ? 1 : 0);
  if (keepaliveSecs_ > 0) {
    setInt(fd, SOL_SOCKET, SO_KEEPALIVE, 1);
    setInt(fd, IPPROTO_TCP, TCP_KEEPIDLE, static_cast<int>(keepaliveSecs_));
  }
}

void TcpTransport::onAcceptable(evutil_socket_t, short, void* arg) {
  static_cast<TcpTransport*>(arg)->acceptAll();
}

void TcpTransport::onAcceptPause(evutil_socket_t, short, void* arg) {
  auto* self = static_cast<TcpTransport*>(arg);
  event_add(self->acceptEvent_.get(), nullptr);
}

void TcpTransport::acceptAll() {
  for (;;) {
    SocketAddress peer;
    peer.length = sizeof(peer.storage);
    UniqueFd fd(::accept4(listener_.get(), reinterpret_cast<sockaddr*>(&peer.storage), &peer.length,
                          SOCK_NONBLOCK | SOCK_CLOEXEC));
    if (!fd) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        // Out of descriptors: stop accepting for a while rather than spin.
        spdlog::warn("accept: {}; pausing accepts for 1 s", std::strerror(errno));
        event_del(acceptEvent_.get());
        event_add(acceptPause_.get(), &ACCEPT_PAUSE);
      }
      return;
    }
    if (counters_.poolInbound >= maxInbound_) {
      ++counters_.connectionsRejected;
      continue;  // fd closes here
    }
    configure(fd.get());
    const SocketAddress from = unmapped(peer);
    auto existing = connections_.find(keyOf(from));
    if (existing != connections_.end()) close(*existing->second);
    Connection* c = add(std::move(fd), from, true);
    ++counters_.connectionsAccepted;
    static const timeval firstFrame = {FIRST_FRAME_TIMEOUT_SECS, 0};
    event_add(c->timer.get(), &firstFrame);
  }
}

TcpTransport::Connection* TcpTransport::add(UniqueFd fd, const SocketAddress& peer, bool inbound) {
  auto c = std::make_unique<Connection>(mtu_);
  c->owner = this;
  c->fd = std::move(fd);
  c->peer = peer;
  c->key = keyOf(peer);
  c->inbound = inbound;
  c->readEvent.reset(event_new(base_.get(), c->fd.get(), EV_READ | EV_PERSIST,
                               &TcpTransport::onReadable, c.get()));
  c->writeEvent.reset(event_new(base_.get(), c->fd.get(), EV_WRITE | EV_PERSIST,
                                &TcpTransport::onWritable, c.get()));
  c->timer.reset(event_new(base_.get(), -1, 0, &TcpTransport::onTimer, c.get()));
  if (!paused_ && inbound) event_add(c->readEvent.get(), nullptr);
  ++(inbound ? counters_.poolInbound : counters_.poolOutbound);
  Connection* raw = c.get();
  connections_[raw->key] = std::move(c);
  return raw;
}

TcpTransport::Connection* TcpTransport::dial(const SocketAddress& peer) {
  UniqueFd fd(::socket(peer.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd) {
    ++counters_.connectRefused;
    return nullptr;
  }
  configure(fd.get());
  setInt(fd.get(), SOL_SOCKET, SO_RCVBUF, static_cast<int>(recvBufSize_));
  setInt(fd.get(), SOL_SOCKET, SO_SNDBUF, static_cast<int>(sendBufSize_));
  const int rc = ::connect(fd.get(), reinterpret_cast<const sockaddr*>(&peer.storage), peer.length);
  if (rc != 0 && errno != EINPROGRESS) {
    ++counters_.connectRefused;
    return nullptr;
  }
  Connection* c = add(std::move(fd), peer, false);
  c->connecting = true;
  event_add(c->writeEvent.get(), nullptr);
  c->writeArmed = true;
  const timeval deadline = {static_cast<time_t>(connectTimeoutMs_ / 1000),
                            static_cast<suseconds_t>(connectTimeoutMs_ % 1000) * 1000};
  event_add(c->timer.get(), &deadline);
  return c;
}

void TcpTransport::connected(Connection& c) {
  c.connecting = false;
  event_del(c.timer.get());
  ++counters_.connectionsEstablished;
  if (!paused_) event_add(c.readEvent.get(), nullptr);
}

void TcpTransport::send(capnp::List<schema::Datagram>::Reader batch) {
  std::vector<Connection*> touched;
  for (auto datagram : batch) {
    auto payload = datagram.getPayload();
    auto to = privsep::fromEndpoint(datagram.getPeer());
    if (!to || payload.size() == 0) {
      ++counters_.sendErrors;
      continue;
    }
    if (payload.size() > mtu_) {
      // The receiver's framer would close the connection over it.
      ++counters_.mtuExceeded;
      continue;
    }
    auto it = connections_.find(keyOf(*to));
    Connection* c = it != connections_.end() ? it->second.get() : dial(*to);
    if (c == nullptr) {
      ++counters_.sendErrors;
      continue;
    }
    if (c->out.size() - c->outStart + payload.size() > MAX_QUEUED_BYTES) {
      ++counters_.sendErrors;
      continue;
    }
    if (c->out.size() == c->outStart) touched.push_back(c);
    c->out.insert(c->out.end(), payload.begin(), payload.end());
    ++counters_.packetsSent;
    counters_.bytesSent += payload.size();
  }
  for (Connection* c : touched) {
    if (!c->connecting) flushOut(*c);
  }
}

// Writes what is queued; arms the write event for the rest. False when the
// connection was closed (a write error).
bool TcpTransport::flushOut(Connection& c) {
  while (c.outStart < c.out.size()) {
    const ssize_t n = ::send(c.fd.get(), c.out.data() + c.outStart, c.out.size() - c.outStart,
                             MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n > 0) {
      c.outStart += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) break;
    ++counters_.sendErrors;
    close(c);
    return false;
  }
  if (c.outStart == c.out.size()) {
    c.out.clear();
    c.outStart = 0;
    if (c.writeArmed) {
      event_del(c.writeEvent.get());
      c.writeArmed = false;
    }
  } else if (!c.writeArmed) {
    event_add(c.writeEvent.get(), nullptr);
    c.writeArmed = true;
  }
  return true;
}

void TcpTransport::onWritable(evutil_socket_t, short, void* arg) {
  auto& c = *static_cast<Connection*>(arg);
  TcpTransport& self = *c.owner;
  if (c.connecting) {
    int error = 0;
    socklen_t len = sizeof(error);
    ::getsockopt(c.fd.get(), SOL_SOCKET, SO_ERROR, &error, &len);
    if (error != 0) {
      ++self.counters_.connectRefused;
      self.counters_.sendErrors += c.out.empty() ? 0 : 1;
      self.close(c);
      return;
    }
    self.connected(c);
  }
  self.flushOut(c);
}

void TcpTransport::onTimer(evutil_socket_t, short, void* arg) {
  auto& c = *static_cast<Connection*>(arg);
  TcpTransport& self = *c.owner;
  if (c.connecting) {
    ++self.counters_.connectTimeouts;
  } else {
    ++self.counters_.firstFrameTimeouts;
  }
  self.close(c);
}

void TcpTransport::onReadable(evutil_socket_t, short, void* arg) {
  auto& c = *static_cast<Connection*>(arg);
  TcpTransport& self = *c.owner;
  self.readFrom(c);
  self.batcher_->flush();
  if (self.batcher_->backlogged()) self.pauseReading();
}

// Up to MAX_READS_PER_WAKEUP reads straight into the framer; whole packets
// go to the batcher. Closes the connection on EOF, an error or bad framing.
void TcpTransport::readFrom(Connection& c) {
  for (int round = 0; round < MAX_READS_PER_WAKEUP; ++round) {
    auto room = c.framer.writable();
    const ssize_t n = ::recv(c.fd.get(), room.data(), room.size(), MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) {
      if (n < 0) ++counters_.recvErrors;
      close(c);
      return;
    }
    c.framer.commit(static_cast<size_t>(n));
    const uint64_t before = c.framer.frames();
    while (auto frame = c.framer.next()) {
      batcher_->add(c.peer, *frame);
      ++counters_.packetsRecv;
      counters_.bytesRecv += frame->size();
    }
    if (c.inbound && before == 0 && c.framer.frames() > 0) event_del(c.timer.get());
    if (c.framer.broken()) {
      ++counters_.framingErrors;
      ++counters_.recvErrors;
      spdlog::debug("closing a connection: {}", framingErrorName(c.framer.error()));
      close(c);
      return;
    }
    if (static_cast<size_t>(n) < room.size()) return;
  }
}

void TcpTransport::close(Connection& c) {
  --(c.inbound ? counters_.poolInbound : counters_.poolOutbound);
  connections_.erase(c.key);  // frees c: its events are deleted, its socket closed
}

void TcpTransport::pauseReading() {
  paused_ = true;
  for (auto& [key, c] : connections_) event_del(c->readEvent.get());
}

void TcpTransport::resumeReading() {
  paused_ = false;
  std::vector<Connection*> ready;
  for (auto& [key, c] : connections_) {
    if (!c->connecting) {
      event_add(c->readEvent.get(), nullptr);
      ready.push_back(c.get());
    }
  }
  // Data may already wait in the kernel; read it now rather than on the next edge.
  for (Connection* c : ready) event_active(c->readEvent.get(), EV_READ, 0);
}

void TcpTransport::onStatsTimer(evutil_socket_t, short, void* arg) {
  static_cast<TcpTransport*>(arg)->sendStats();
}

void TcpTransport::sendStats() {
  capnp::MallocMessageBuilder msg;
  auto stats = msg.initRoot<schema::TransportEvent>().initStats();
  stats.setRxDatagrams(counters_.packetsRecv);
  stats.setTxDatagrams(counters_.packetsSent);
  stats.setSendErrors(counters_.sendErrors);
  const std::pair<const char*, uint64_t> named[] = {
      {"packets_sent", counters_.packetsSent},
      {"bytes_sent", counters_.bytesSent},
      {"packets_recv", counters_.packetsRecv},
      {"bytes_recv", counters_.bytesRecv},
      {"send_errors", counters_.sendErrors},
      {"recv_errors", counters_.recvErrors},
      {"framing_errors", counters_.framingErrors},
      {"mtu_exceeded", counters_.mtuExceeded},
      {"connections_established", counters_.connectionsEstablished},
      {"connections_accepted", counters_.connectionsAccepted},
      {"connections_rejected", counters_.connectionsRejected},
      {"connect_timeouts", counters_.connectTimeouts},
      {"connect_refused", counters_.connectRefused},
      {"first_frame_timeouts", counters_.firstFrameTimeouts},
      {"pool_inbound", counters_.poolInbound},
      {"pool_outbound", counters_.poolOutbound},
  };
  auto list = stats.initCounters(static_cast<unsigned>(std::size(named)));
  for (unsigned i = 0; i < std::size(named); ++i) {
    list[i].setName(named[i].first);
    list[i].setValue(named[i].second);
  }
  router_->send(msg);
}

}  // namespace fips::transport
