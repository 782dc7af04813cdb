// SPDX-License-Identifier: MIT
// socks5-dial: dials a Tor peer address through a SOCKS5 proxy with the
// transport's own client (transports/tor/socks5-io.h), sends stdin through
// the tunnel and prints what comes back. The integration tests drive it
// against microsocks and tor's SocksPort. Test tool, not installed.
//
//   socks5-dial PROXY_ADDR:PORT HOST:PORT [--auth USER:PASS | --isolate]
//               [--timeout-ms N] [--linger-ms N]
//
// Exit 0: tunnel made, then closed by the far end or quiet for the linger
// time after stdin ended; 1: handshake failed (the reason on stderr,
// "socks5-dial: <text>"); 2: usage.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <poll.h>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <unistd.h>

#include "privsep/socket-address.h"

#include "transports/tor/socks5-io.h"
#include "transports/tor/tor-address.h"

using namespace fips::transport::tor;

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: socks5-dial PROXY_ADDR:PORT HOST:PORT [--auth USER:PASS | --isolate] "
               "[--timeout-ms N] [--linger-ms N]\n");
  return 2;
}

// Copies stdin into the tunnel and the tunnel to stdout until the far end
// closes, or, once stdin ended, nothing came for `lingerMs` (the write side
// stays open: some proxies close both ways on a half-close).
int relay(int fd, int lingerMs) {
  bool stdinOpen = true;
  char buf[16384];
  for (;;) {
    pollfd p[2] = {{fd, POLLIN, 0}, {stdinOpen ? 0 : -1, POLLIN, 0}};
    const int ready = ::poll(p, 2, stdinOpen ? -1 : lingerMs);
    if (ready < 0 && errno != EINTR) return 1;
    if (ready == 0) return 0;
    if ((p[1].revents & (POLLIN | POLLHUP)) != 0) {
      const ssize_t n = ::read(0, buf, sizeof buf);
      if (n <= 0) {
        stdinOpen = false;
      } else if (::send(fd, buf, static_cast<size_t>(n), MSG_NOSIGNAL) != n) {
        return 1;
      }
    }
    if ((p[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n == 0) return 0;
      if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) continue;
        return 1;
      }
      if (std::fwrite(buf, 1, static_cast<size_t>(n), stdout) != static_cast<size_t>(n)) return 1;
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const auto proxy = fips::privsep::parseSocketAddress(argv[1]);
  if (!proxy) return usage();
  const auto address = parseTorAddress(argv[2]);
  if (!address.target) {
    std::fprintf(stderr, "socks5-dial: %s: %s\n", argv[2], address.error.c_str());
    return 2;
  }
  std::optional<Socks5Auth> auth;
  long timeoutMs = 30000;
  long lingerMs = 1000;
  for (int i = 3; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--isolate") {
      auth = torIsolationAuth(*address.target);
    } else if (arg == "--auth" && i + 1 < argc) {
      const std::string_view up = argv[++i];
      const size_t colon = up.find(':');
      if (colon == std::string_view::npos) return usage();
      auth = Socks5Auth{std::string(up.substr(0, colon)), std::string(up.substr(colon + 1))};
    } else if (arg == "--timeout-ms" && i + 1 < argc) {
      timeoutMs = std::strtol(argv[++i], nullptr, 10);
    } else if (arg == "--linger-ms" && i + 1 < argc) {
      lingerMs = std::strtol(argv[++i], nullptr, 10);
    } else {
      return usage();
    }
  }
  if (auto why = socks5RequestError(*address.target, auth)) {
    std::fprintf(stderr, "socks5-dial: %s\n", why->c_str());
    return 2;
  }
  auto result = socks5Dial(*proxy, *address.target, auth, std::chrono::milliseconds(timeoutMs));
  if (result.error != Socks5Error::NONE) {
    std::string text = socks5ErrorText(result.error);
    if (result.sysErrno != 0) text += std::string(": ") + std::strerror(result.sysErrno);
    std::fprintf(stderr, "socks5-dial: %s\n", text.c_str());
    return 1;
  }
  return relay(result.fd.get(), static_cast<int>(lingerMs));
}
