// SPDX-License-Identifier: MIT
// Drives a Socks5Client over a non-blocking socket: one step per readiness
// event (the worker's event loop), or a whole dial with a deadline (tools
// and tests). Runs in fips-transport-tor; the proxy is untrusted.
#pragma once

#include <chrono>

#include "privsep/socket-address.h"

#include "lib/unique-fd.h"
#include "transports/tor/socks5-client.h"

namespace fips::transport::tor {

// What the socket must become before the next socks5Step.
enum class Socks5Wait {
  READ,
  WRITE,
  NONE,  // the handshake ended: client.phase() is DONE or FAILED
};

// The outcome of one step; `sysErrno` is the errno of an IO_ERROR, else 0.
struct Socks5StepResult {
  Socks5Wait wait = Socks5Wait::NONE;
  int sysErrno = 0;
};

// Writes client.output() and reads at most client.wanted() bytes from the
// connected (or connecting) non-blocking stream socket `fd` until it would
// block or the handshake ends. End of stream fails the client with
// PROXY_CLOSED, a socket error with IO_ERROR. Never reads a byte beyond the
// reply, so the socket holds only tunnelled data once DONE.
Socks5StepResult socks5Step(int fd, Socks5Client& client);

// The result of socks5Dial: a connected tunnel, or why not.
struct Socks5DialResult {
  UniqueFd fd;  // valid only when error == NONE
  Socks5Error error = Socks5Error::NONE;
  int sysErrno = 0;  // with IO_ERROR: connect or socket errno (ETIMEDOUT on the deadline)
};

// Connects to the proxy, runs the handshake with poll() and returns the
// tunnel (non-blocking, TCP_NODELAY, keepalive after 30 s idle). Blocks up
// to `timeout` in all.
Socks5DialResult socks5Dial(const privsep::SocketAddress& proxy, const Socks5Target& target,
                            const std::optional<Socks5Auth>& auth,
                            std::chrono::milliseconds timeout);

}  // namespace fips::transport::tor
