// SPDX-License-Identifier: MIT
// SEQPACKET + capnp + SCM_RIGHTS channel (see channel.h). Runs in every
// process; what arrives is from the process on the other side of a privsep
// boundary, so every size and count is checked before use.
#include "privsep/channel.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <system_error>

#include <capnp/serialize.h>
#include <kj/exception.h>

#include "privsep/log.h"

namespace fips::privsep {

namespace {

constexpr size_t MAX_FDS_PER_MESSAGE = 4;  // any channel, any direction
constexpr int MAX_READS_PER_WAKEUP = 64;   // fairness between channels

void setNonBlocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
    throw std::system_error(errno, std::generic_category(), "fcntl(O_NONBLOCK)");
  }
}

}  // namespace

std::pair<UniqueFd, UniqueFd> makeChannelPair() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0) {
    throw std::system_error(errno, std::generic_category(), "socketpair(SOCK_SEQPACKET)");
  }
  return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

Channel::Channel(EventBase& base, UniqueFd fd, std::string name, ChannelLimits limits,
                 MessageHandler onMessage, CloseHandler onClose)
    : fd_(std::move(fd)),
      name_(std::move(name)),
      limits_(limits),
      onMessage_(std::move(onMessage)),
      onClose_(std::move(onClose)),
      buffer_(kj::heapArray<capnp::word>(limits.maxBytes / sizeof(capnp::word) + 1)) {
  if (limits_.maxFds > MAX_FDS_PER_MESSAGE) fatal("{}: maxFds {} too large", name_, limits_.maxFds);
  setNonBlocking(fd_.get());
  readEvent_.reset(event_new(base.get(), fd_.get(), EV_READ | EV_PERSIST, &Channel::onEvent, this));
  writeEvent_.reset(event_new(base.get(), fd_.get(), EV_WRITE, &Channel::onEvent, this));
  closeEvent_.reset(event_new(base.get(), -1, 0, &Channel::onEvent, this));
  if (!readEvent_ || !writeEvent_ || !closeEvent_) throw std::runtime_error("event_new failed");
  event_add(readEvent_.get(), nullptr);
}

Channel::~Channel() = default;

void Channel::onEvent(int /*fd*/, short what, void* arg) {
  auto* self = static_cast<Channel*>(arg);
  try {
    if (self->closed_) {
      // The handler may destroy this Channel: call a copy that owns its captures.
      if (what == 0 || (what & EV_TIMEOUT) != 0) CloseHandler(self->onClose_)();
      return;
    }
    if ((what & EV_WRITE) != 0) {
      self->writeArmed_ = false;
      if (self->flush()) {
        if (!self->queue_.empty()) {
          self->armWrite(true);
        } else if (self->onDrained_) {
          self->onDrained_();
        }
      }
    }
    if ((what & EV_READ) != 0) self->readAll();
  } catch (const std::exception& e) {
    fatal("{}: {}", self->name_, e.what());
  } catch (...) {
    fatal("{}: unknown exception in channel callback", self->name_);
  }
}

void Channel::readAll() {
  for (int i = 0; i < MAX_READS_PER_WAKEUP && !closed_; ++i) {
    if (!readOne()) break;
  }
}

// Receives one packet. Returns false when there is nothing more to read.
bool Channel::readOne() {
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * MAX_FDS_PER_MESSAGE)];
  iovec iov{buffer_.begin(), buffer_.size() * sizeof(capnp::word)};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  ssize_t n = ::recvmsg(fd_.get(), &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
  if (n < 0) {
    if (errno == EAGAIN || errno == EINTR) return false;
    if (errno == ECONNRESET) {
      markClosed();
      return false;
    }
    fatal("{}: recvmsg: {}", name_, std::strerror(errno));
  }
  std::vector<UniqueFd> fds;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t k = 0; k < count; ++k) {
      int received;
      std::memcpy(&received, CMSG_DATA(c) + k * sizeof(int), sizeof(int));
      fds.emplace_back(received);
    }
  }
  if (n == 0) {
    markClosed();
    return false;
  }
  if ((msg.msg_flags & MSG_CTRUNC) != 0) {
    fault("too many fds attached");
    return false;
  }
  if ((msg.msg_flags & MSG_TRUNC) != 0 || static_cast<size_t>(n) > limits_.maxBytes) {
    fault(fmt::format("message larger than {} bytes", limits_.maxBytes));
    return false;
  }
  if (fds.size() > limits_.maxFds) {
    fault(fmt::format("{} fds attached, at most {} allowed", fds.size(), limits_.maxFds));
    return false;
  }
  dispatch(static_cast<size_t>(n), fds);
  return true;
}

void Channel::dispatch(size_t bytes, std::vector<UniqueFd>& fds) {
  if (bytes % sizeof(capnp::word) != 0) {
    return fault(fmt::format("message of {} bytes is not whole words", bytes));
  }
  capnp::ReaderOptions options;
  options.traversalLimitInWords = limits_.traversalWords;
  options.nestingLimit = 16;
  auto words = kj::arrayPtr(buffer_.begin(), bytes / sizeof(capnp::word));
  KJ_IF_MAYBE (e, kj::runCatchingExceptions([&]() {
                 capnp::FlatArrayMessageReader reader(words, options);
                 if (reader.getEnd() != words.end()) {
                   KJ_FAIL_REQUIRE("trailing bytes after the message");
                 }
                 onMessage_(reader, fds);
               })) {
    fault(fmt::format("malformed message: {}", e->getDescription().cStr()));
  }
  if (wipeAfterDispatch_) {
    ::explicit_bzero(buffer_.begin(), bytes);
    wipeAfterDispatch_ = false;
  }
}

void Channel::send(capnp::MessageBuilder& message, int fd, bool wipe) {
  if (closed_) return;
  Outgoing out{capnp::messageToFlatArray(message), UniqueFd(), wipe};
  if (fd >= 0) {
    out.fd.reset(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
    if (!out.fd) fatal("{}: dup of fd to send: {}", name_, std::strerror(errno));
  }
  queue_.push_back(std::move(out));
  if (queue_.size() == 1 && flush() && !queue_.empty()) armWrite(true);
}

// Sends queued messages until the socket would block. Returns false if the
// channel closed.
bool Channel::flush() {
  while (!queue_.empty()) {
    Outgoing& out = queue_.front();
    auto bytes = out.words.asBytes();
    iovec iov{bytes.begin(), bytes.size()};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
    if (out.fd) {
      msg.msg_control = control;
      msg.msg_controllen = sizeof(control);
      cmsghdr* c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int));
      int raw = out.fd.get();
      std::memcpy(CMSG_DATA(c), &raw, sizeof(int));
    }
    ssize_t n = ::sendmsg(fd_.get(), &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) return true;
      spdlog::warn("{}: sendmsg: {}", name_, std::strerror(errno));
      markClosed();
      return false;
    }
    if (out.wipe) ::explicit_bzero(out.words.begin(), bytes.size());
    queue_.pop_front();
  }
  return true;
}

void Channel::armWrite(bool on) {
  if (on && !writeArmed_) {
    event_add(writeEvent_.get(), nullptr);
    writeArmed_ = true;
  }
}

void Channel::fault(const std::string& reason) {
  if (!onPeerFault_) fatal("{}: {}", name_, reason);
  if (closed_) return;
  const PeerFaultHandler report = onPeerFault_;
  report(reason);
  markClosed();
}

// Stops I/O and reports the close from the loop (never re-entrantly).
void Channel::markClosed() {
  if (closed_) return;
  closed_ = true;
  event_del(readEvent_.get());
  event_del(writeEvent_.get());
  for (auto& out : queue_) {
    if (out.wipe) ::explicit_bzero(out.words.begin(), out.words.asBytes().size());
  }
  queue_.clear();
  event_active(closeEvent_.get(), EV_TIMEOUT, 0);
}

}  // namespace fips::privsep
