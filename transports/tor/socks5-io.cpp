// SPDX-License-Identifier: MIT
// Non-blocking I/O for the SOCKS5 handshake (see socks5-io.h). Runs in
// fips-transport-tor.
#include "transports/tor/socks5-io.h"

#include <array>
#include <cerrno>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

namespace fips::transport::tor {

Socks5StepResult socks5Step(int fd, Socks5Client& client) {
  for (;;) {
    if (client.phase() == Socks5Phase::DONE || client.phase() == Socks5Phase::FAILED) {
      return {};
    }
    const auto out = client.output();
    if (!out.empty()) {
      const ssize_t n = ::send(fd, out.data(), out.size(), MSG_NOSIGNAL);
      if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
          return {Socks5Wait::WRITE, 0};
        }
        const int err = errno;
        client.fail(Socks5Error::IO_ERROR);
        return {Socks5Wait::NONE, err};
      }
      client.sent(static_cast<size_t>(n));
      continue;
    }
    // A reply is at most 4 + 1 + 255 + 2 bytes.
    std::array<uint8_t, 262> buf{};
    const size_t want = std::min(client.wanted(), buf.size());
    const ssize_t n = ::recv(fd, buf.data(), want, 0);
    if (n == 0) {
      client.fail(Socks5Error::PROXY_CLOSED);
      return {};
    }
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        return {Socks5Wait::READ, 0};
      }
      const int err = errno;
      client.fail(Socks5Error::IO_ERROR);
      return {Socks5Wait::NONE, err};
    }
    client.feed(std::span<const uint8_t>(buf.data(), static_cast<size_t>(n)));
  }
}

Socks5DialResult socks5Dial(const privsep::SocketAddress& proxy, const Socks5Target& target,
                            const std::optional<Socks5Auth>& auth,
                            std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + timeout;
  UniqueFd fd(::socket(proxy.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd) return {{}, Socks5Error::IO_ERROR, errno};
  // As the reference: no Nagle delay, keepalive probes after 30 s idle.
  const int one = 1;
  const int idleSecs = 30;
  ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  ::setsockopt(fd.get(), SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
  ::setsockopt(fd.get(), IPPROTO_TCP, TCP_KEEPIDLE, &idleSecs, sizeof idleSecs);
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&proxy.storage), proxy.length) != 0 &&
      errno != EINPROGRESS) {
    return {{}, Socks5Error::IO_ERROR, errno};
  }
  Socks5Client client(target, auth);
  for (;;) {
    const auto step = socks5Step(fd.get(), client);
    if (step.wait == Socks5Wait::NONE) {
      if (client.phase() == Socks5Phase::DONE) return {std::move(fd), Socks5Error::NONE, 0};
      // A refused connect surfaces here as send()'s ECONNREFUSED.
      return {{}, client.error(), step.sysErrno};
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{fd.get(), static_cast<short>(step.wait == Socks5Wait::READ ? POLLIN : POLLOUT), 0};
    if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) == 0) {
      return {{}, Socks5Error::IO_ERROR, ETIMEDOUT};
    }
    if ((p.revents & (POLLERR | POLLHUP)) != 0 && (p.revents & POLLIN) == 0) {
      int err = 0;
      socklen_t len = sizeof err;
      ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
      if (err != 0) return {{}, Socks5Error::IO_ERROR, err};
    }
  }
}

}  // namespace fips::transport::tor
