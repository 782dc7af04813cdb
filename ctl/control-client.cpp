// SPDX-License-Identifier: MIT
// ControlClient (see control-client.h).
#include "ctl/control-client.h"

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <fmt/format.h>

namespace fips::ctl {

namespace {

// A connected Unix stream socket, or ControlError with the reference's hints.
int connectUnix(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(addr.sun_path)) {
    throw ControlError(fmt::format("cannot connect to {}: path too long", path));
  }
  std::memcpy(addr.sun_path, path.data(), path.size());
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw ControlError(fmt::format("socket: {}", std::strerror(errno)));
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0) return fd;
  const int error = errno;
  ::close(fd);
  const char* hint = error == EACCES
                         ? "add your user to the 'fips' group: sudo usermod -aG fips $USER, "
                           "then log in again"
                         : "is the FIPS daemon running?";
  throw ControlError(
      fmt::format("cannot connect to {}: {} ({})", path, std::strerror(error), hint));
}

}  // namespace

ControlClient::ControlClient(const std::string& path) : io_(kj::setupAsyncIo()), control_(nullptr) {
  const int fd = connectUnix(path);
  stream_ =
      io_.lowLevelProvider->wrapSocketFd(fd, kj::LowLevelAsyncIoProvider::TAKE_OWNERSHIP |
                                                 kj::LowLevelAsyncIoProvider::ALREADY_CLOEXEC);
  client_ = std::make_unique<capnp::TwoPartyClient>(*stream_);
  control_ = client_->bootstrap().castAs<schema::FipsControl>();
}

std::string ControlClient::describe(const kj::Exception& e) {
  if (e.getType() == kj::Exception::Type::DISCONNECTED) return "the daemon closed the connection";
  if (e.getType() == kj::Exception::Type::OVERLOADED) {
    return fmt::format("request timed out: the daemon did not answer within {} s", TIMEOUT_SECS);
  }
  std::string text = e.getDescription().cStr();
  text = text.substr(0, text.find('\n'));
  return "control request failed: " + text;
}

}  // namespace fips::ctl
