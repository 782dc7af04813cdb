// SPDX-License-Identifier: MIT
// DnsTcpListener (see dns-tcp-listener.h).
#include "router/daemon/dns-tcp-listener.h"

#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include "privsep/log.h"

namespace fips::router {

namespace {

constexpr int READS_PER_WAKEUP = 16;
constexpr size_t READ_CHUNK = 4096;
constexpr uint8_t MESH_PREFIX_BYTE = 0xfd;  // fd00::/8

bool isMeshPeer(const sockaddr_storage& peer) {
  if (peer.ss_family != AF_INET6) return false;
  const auto& in6 = reinterpret_cast<const sockaddr_in6&>(peer);
  return in6.sin6_addr.s6_addr[0] == MESH_PREFIX_BYTE;
}

}  // namespace

struct DnsTcpListener::Connection {
  DnsTcpListener* owner = nullptr;
  UniqueFd fd;
  privsep::EventPtr readEvent;   // persistent, with the idle timeout
  privsep::EventPtr writeEvent;  // pending only while `out` is not empty
  dns::DnsTcpFramer framer;
  std::vector<uint8_t> out;
  bool peerClosed = false;
};

DnsTcpListener::DnsTcpListener(privsep::EventBase& base, UniqueFd listener, AnswerFn answer)
    : base_(base), listener_(std::move(listener)), answer_(std::move(answer)) {
  acceptEvent_.reset(event_new(base_.get(), listener_.get(), EV_READ | EV_PERSIST,
                               &DnsTcpListener::onAccept, this));
  event_add(acceptEvent_.get(), nullptr);
}

DnsTcpListener::~DnsTcpListener() = default;

void DnsTcpListener::onAccept(evutil_socket_t fd, short, void* arg) {
  auto* self = static_cast<DnsTcpListener*>(arg);
  try {
    self->acceptOne(fd);
  } catch (const std::exception& e) {
    privsep::fatal("DNS over TCP: {}", e.what());
  }
}

void DnsTcpListener::acceptOne(int listenFd) {
  sockaddr_storage peer{};
  socklen_t len = sizeof(peer);
  UniqueFd fd(
      ::accept4(listenFd, reinterpret_cast<sockaddr*>(&peer), &len, SOCK_NONBLOCK | SOCK_CLOEXEC));
  if (!fd) {
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED) {
      spdlog::warn("DNS over TCP: accept4: {}", std::strerror(errno));
    }
    return;
  }
  if (isMeshPeer(peer)) {
    ++counters_.meshPeer;
    return;  // closed by fd's destructor
  }
  if (connections_.size() >= DNS_TCP_MAX_CONNECTIONS) {
    ++counters_.overLimit;
    return;
  }
  ++counters_.accepted;
  auto c = std::make_unique<Connection>();
  c->owner = this;
  c->fd = std::move(fd);
  const int key = c->fd.get();
  c->readEvent.reset(
      event_new(base_.get(), key, EV_READ | EV_PERSIST, &DnsTcpListener::onConnection, c.get()));
  c->writeEvent.reset(
      event_new(base_.get(), key, EV_WRITE | EV_PERSIST, &DnsTcpListener::onConnection, c.get()));
  const timeval idle{DNS_TCP_IDLE_SECS, 0};
  event_add(c->readEvent.get(), &idle);
  connections_.emplace(key, std::move(c));
}

void DnsTcpListener::onConnection(evutil_socket_t, short what, void* arg) {
  auto* c = static_cast<Connection*>(arg);
  try {
    c->owner->serve(*c, what);
  } catch (const std::exception& e) {
    privsep::fatal("DNS over TCP: {}", e.what());
  }
}

void DnsTcpListener::serve(Connection& c, short what) {
  if ((what & EV_TIMEOUT) != 0) {
    ++counters_.idleClosed;
    close(c);
    return;
  }
  if ((what & EV_WRITE) != 0 && !flush(c)) {
    close(c);
    return;
  }
  if ((what & EV_READ) != 0 && !readSome(c)) {
    close(c);
    return;
  }
  if (c.out.size() > DNS_TCP_MAX_QUEUED) {
    ++counters_.broken;
    close(c);
    return;
  }
  if (c.peerClosed && c.out.empty()) {
    close(c);
    return;
  }
  if ((what & EV_READ) != 0) {
    const timeval idle{DNS_TCP_IDLE_SECS, 0};
    event_add(c.readEvent.get(), &idle);  // the idle time starts again
  }
  if (c.out.empty()) {
    event_del(c.writeEvent.get());
  } else {
    event_add(c.writeEvent.get(), nullptr);
  }
}

bool DnsTcpListener::readSome(Connection& c) {
  for (int i = 0; i < READS_PER_WAKEUP && !c.peerClosed; ++i) {
    uint8_t buf[READ_CHUNK];
    const ssize_t n = ::read(c.fd.get(), buf, sizeof(buf));
    if (n == 0) {
      c.peerClosed = true;
      break;
    }
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) break;
      return false;  // ECONNRESET and the like
    }
    c.framer.feed(std::span<const uint8_t>(buf, static_cast<size_t>(n)));
    while (auto query = c.framer.next()) {
      if (auto reply = answer_(*query)) {
        const auto framed = dns::DnsTcpFramer::frame(*reply);
        c.out.insert(c.out.end(), framed.begin(), framed.end());
      }
    }
    if (c.framer.broken()) {
      ++counters_.broken;
      return false;
    }
  }
  return flush(c);
}

bool DnsTcpListener::flush(Connection& c) {
  while (!c.out.empty()) {
    iovec iov{c.out.data(), c.out.size()};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    const ssize_t n = ::sendmsg(c.fd.get(), &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    c.out.erase(c.out.begin(), c.out.begin() + n);
  }
  return true;
}

void DnsTcpListener::close(Connection& c) {
  connections_.erase(c.fd.get());
}

}  // namespace fips::router
