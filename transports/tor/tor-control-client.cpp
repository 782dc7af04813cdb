// SPDX-License-Identifier: MIT
// Blocking tor control-port client (see tor-control-client.h).
#include "transports/tor/tor-control-client.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <fmt/format.h>

#include "privsep/socket-address.h"

#include "transports/tor/onion-files.h"

namespace fips::transport::tor {

namespace {

using Clock = std::chrono::steady_clock;

int msLeft(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

// Waits until `fd` is ready for `events`; false on timeout.
bool waitFor(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, msLeft(deadline));
    if (n > 0) return true;
    if (n == 0) return false;
    if (errno != EINTR) return false;
  }
}

// Reads tor's 32-byte cookie file.
std::optional<ControlCookie> readCookie(const std::string& path, std::string& error) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) {
    error = fmt::format("cannot read cookie file {}: {}", path, std::strerror(errno));
    return std::nullopt;
  }
  std::array<uint8_t, CONTROL_COOKIE_SIZE + 1> buf{};
  const ssize_t n = ::read(fd.get(), buf.data(), buf.size());
  if (n != static_cast<ssize_t>(CONTROL_COOKIE_SIZE)) {
    error = fmt::format("cookie file {} does not hold 32 bytes", path);
    return std::nullopt;
  }
  ControlCookie cookie{};
  std::copy(buf.begin(), buf.begin() + CONTROL_COOKIE_SIZE, cookie.begin());
  OPENSSL_cleanse(buf.data(), buf.size());
  return cookie;
}

}  // namespace

std::optional<ControlAuth> parseControlAuth(std::string_view text) {
  if (text == "cookie") return ControlAuth{};
  if (text.starts_with("cookie:") && text.size() > 7) {
    return ControlAuth{ControlAuth::Kind::COOKIE, std::string(text.substr(7)), ""};
  }
  if (text.starts_with("password:")) {
    return ControlAuth{ControlAuth::Kind::PASSWORD, "", std::string(text.substr(9))};
  }
  return std::nullopt;
}

TorControlClient::TorControlClient(UniqueFd fd, std::chrono::milliseconds timeout)
    : fd_(std::move(fd)), timeout_(timeout) {}

std::unique_ptr<TorControlClient> TorControlClient::connect(std::string_view address,
                                                            std::chrono::milliseconds timeout,
                                                            std::string& error) {
  sockaddr_storage storage{};
  socklen_t length = 0;
  if (address.starts_with("/") || address.starts_with("./")) {
    auto* un = reinterpret_cast<sockaddr_un*>(&storage);
    if (address.size() >= sizeof un->sun_path) {
      error = "control socket path too long";
      return nullptr;
    }
    un->sun_family = AF_UNIX;
    std::memcpy(un->sun_path, address.data(), address.size());
    length = sizeof(sockaddr_un);
  } else {
    auto parsed = privsep::parseSocketAddress(address);
    if (!parsed) {
      error = fmt::format("control address {} is neither ADDR:PORT nor a socket path", address);
      return nullptr;
    }
    storage = parsed->storage;
    length = parsed->length;
  }
  UniqueFd fd(::socket(storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd) {
    error = fmt::format("socket: {}", std::strerror(errno));
    return nullptr;
  }
  const auto deadline = Clock::now() + timeout;
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&storage), length) != 0) {
    if (errno != EINPROGRESS && errno != EAGAIN) {
      error = fmt::format("connect {}: {}", address, std::strerror(errno));
      return nullptr;
    }
    int err = ETIMEDOUT;
    socklen_t len = sizeof err;
    if (waitFor(fd.get(), POLLOUT, deadline))
      ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0) {
      error = fmt::format("connect {}: {}", address, std::strerror(err));
      return nullptr;
    }
  }
  return std::unique_ptr<TorControlClient>(new TorControlClient(std::move(fd), timeout));
}

std::optional<ControlReply> TorControlClient::command(std::string_view line) {
  std::optional<ControlReply> result;
  if (!pipeline_.send(line, [&result](const ControlReply& reply) { result = reply; })) {
    error_ = "control command holds a line break, or the connection is broken";
    return std::nullopt;
  }
  const auto deadline = Clock::now() + timeout_;
  while (!result) {
    if (!pipeline_.broken().empty()) {
      error_ = "control port: " + pipeline_.broken();
      return std::nullopt;
    }
    const auto out = pipeline_.output();
    if (!out.empty()) {
      const ssize_t n = ::send(fd_.get(), out.data(), out.size(), MSG_NOSIGNAL);
      if (n > 0) {
        pipeline_.sent(static_cast<size_t>(n));
        continue;
      }
    } else {
      std::array<uint8_t, 4096> buf{};
      const ssize_t n = ::recv(fd_.get(), buf.data(), buf.size(), 0);
      if (n > 0) {
        pipeline_.feed(std::span<const uint8_t>(buf.data(), static_cast<size_t>(n)));
        continue;
      }
      if (n == 0) {
        error_ = "control port closed the connection";
        return std::nullopt;
      }
    }
    if (errno != EAGAIN && errno != EINTR) {
      error_ = fmt::format("control port: {}", std::strerror(errno));
      return std::nullopt;
    }
    if (!waitFor(fd_.get(), out.empty() ? POLLIN : POLLOUT, deadline)) {
      error_ = "timed out waiting for the control port";
      return std::nullopt;
    }
  }
  return result;
}

std::string TorControlClient::authenticateCookie(const ProtocolInfo& info,
                                                 const ControlAuth& auth) {
  if (!info.has("SAFECOOKIE") && !info.has("COOKIE")) return "tor offers no cookie authentication";
  const std::string path = auth.cookiePath.empty() ? info.cookieFile : auth.cookiePath;
  if (path.empty()) return "tor named no cookie file and control_auth gives none";
  std::string error;
  auto cookie = readCookie(path, error);
  if (!cookie) return error;
  std::string line;
  if (info.has("SAFECOOKIE")) {
    ControlCookie nonce{};
    if (RAND_bytes(nonce.data(), static_cast<int>(nonce.size())) != 1) return "RAND_bytes failed";
    auto reply = command(authChallengeCommand(nonce));
    if (!reply) return error_;
    auto challenge = parseAuthChallenge(*reply);
    if (!challenge)
      return fmt::format("AUTHCHALLENGE refused: {} {}", reply->status, reply->message());
    auto answer = safeCookieAuthenticate(*cookie, nonce, *challenge);
    if (!answer) return "tor's SAFECOOKIE server hash is wrong (not the tor that wrote the cookie)";
    line = std::move(*answer);
  } else {
    line = cookieAuthenticate(*cookie);
  }
  OPENSSL_cleanse(cookie->data(), cookie->size());
  auto reply = command(line);
  OPENSSL_cleanse(line.data(), line.size());
  if (!reply) return error_;
  if (!reply->ok())
    return fmt::format("AUTHENTICATE refused: {} {}", reply->status, reply->message());
  return "";
}

std::string TorControlClient::authenticate(const ControlAuth& auth) {
  auto reply = command("PROTOCOLINFO 1");
  if (!reply) return error_;
  auto info = parseProtocolInfo(*reply);
  if (!info) return fmt::format("PROTOCOLINFO refused: {} {}", reply->status, reply->message());
  if (info->has("NULL")) {
    auto ok = command("AUTHENTICATE");
    if (!ok) return error_;
    return ok->ok() ? "" : fmt::format("AUTHENTICATE refused: {} {}", ok->status, ok->message());
  }
  if (auth.kind == ControlAuth::Kind::COOKIE) return authenticateCookie(*info, auth);
  if (!info->has("HASHEDPASSWORD")) return "tor offers no password authentication";
  std::string line = passwordAuthenticate(auth.password);
  auto ok = command(line);
  OPENSSL_cleanse(line.data(), line.size());
  if (!ok) return error_;
  return ok->ok() ? "" : fmt::format("AUTHENTICATE refused: {} {}", ok->status, ok->message());
}

std::optional<TorStatus> TorControlClient::status() {
  auto reply = command(statusGetInfoCommand());
  if (!reply) return std::nullopt;
  auto status = parseStatus(*reply);
  if (!status) error_ = fmt::format("GETINFO refused: {} {}", reply->status, reply->message());
  return status;
}

OnionService addOnionWithSavedKey(TorControlClient& client, const std::filesystem::path& keyPath,
                                  const std::vector<std::string>& ports, bool detach) {
  OnionService service;
  auto saved = loadOnionKey(keyPath);
  if (!saved.error.empty()) {
    service.error = saved.error;
    return service;
  }
  if (!saved.key) {
    service.error = checkOnionKeyWritable(keyPath);
    if (!service.error.empty()) return service;
  }
  std::string key = saved.key ? *saved.key : "NEW:ED25519-V3";
  std::string line = addOnionCommand(key, ports, detach);
  auto reply = client.command(line);
  OPENSSL_cleanse(line.data(), line.size());
  OPENSSL_cleanse(key.data(), key.size());
  if (!reply) {
    service.error = client.error();
    return service;
  }
  auto result = parseAddOnion(*reply);
  if (!result) {
    service.error = fmt::format("ADD_ONION refused: {} {}", reply->status, reply->message());
    if (reply->status == 550 && saved.key) {
      service.error += " (a detached service with this key still runs in tor: DEL_ONION it)";
    }
    return service;
  }
  service.serviceId = result->serviceId;
  if (!saved.key) {
    service.error = saveOnionKey(keyPath, result->privateKey);
    service.keyCreated = service.error.empty();
    // A service whose key is lost would change address on the next start.
    if (!service.keyCreated) client.command(delOnionCommand(service.serviceId));
  }
  OPENSSL_cleanse(result->privateKey.data(), result->privateKey.size());
  return service;
}

}  // namespace fips::transport::tor
