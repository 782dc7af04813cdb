// SPDX-License-Identifier: MIT
// Host name lookups off the event loop (see host-resolver.h).
#include "transports/udp/host-resolver.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <stdexcept>
#include <sys/eventfd.h>
#include <unistd.h>

#include "privsep/host-name.h"
#include "privsep/log.h"

namespace fips::transport {

using privsep::SocketAddress;

namespace {

bool sameAddress(const SocketAddress& a, const SocketAddress& b) {
  return a.length == b.length && std::memcmp(&a.storage, &b.storage, a.length) == 0;
}

}  // namespace

std::vector<SocketAddress> usableAddresses(const addrinfo* results, int family, uint16_t port) {
  std::vector<SocketAddress> out;
  for (const addrinfo* ai = results; ai != nullptr; ai = ai->ai_next) {
    if (out.size() == privsep::MAX_RESOLVED_ADDRS) break;
    SocketAddress address;
    if (ai->ai_family != family) continue;
    if (family == AF_INET && ai->ai_addrlen == sizeof(sockaddr_in)) {
      std::memcpy(&address.storage, ai->ai_addr, sizeof(sockaddr_in));
      reinterpret_cast<sockaddr_in*>(&address.storage)->sin_port = htons(port);
      address.length = sizeof(sockaddr_in);
    } else if (family == AF_INET6 && ai->ai_addrlen == sizeof(sockaddr_in6)) {
      std::memcpy(&address.storage, ai->ai_addr, sizeof(sockaddr_in6));
      reinterpret_cast<sockaddr_in6*>(&address.storage)->sin6_port = htons(port);
      address.length = sizeof(sockaddr_in6);
    } else {
      continue;
    }
    if (std::none_of(out.begin(), out.end(),
                     [&](const SocketAddress& seen) { return sameAddress(seen, address); })) {
      out.push_back(address);
    }
  }
  return out;
}

HostResolver::HostResolver(privsep::EventBase& base, int family, AnswerHandler onAnswer)
    : family_(family),
      onAnswer_(std::move(onAnswer)),
      wake_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  if (!wake_) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
  wakeEvent_.reset(
      event_new(base.get(), wake_.get(), EV_READ | EV_PERSIST, &HostResolver::onWake, this));
  event_add(wakeEvent_.get(), nullptr);
}

HostResolver::~HostResolver() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wakeThread_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void HostResolver::resolve(uint32_t id, std::string host, uint16_t port) {
  {
    std::lock_guard lock(mutex_);
    requests_.push_back({id, std::move(host), port});
  }
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  wakeThread_.notify_one();
}

// The resolver thread: one lookup at a time, answers queued for the loop.
void HostResolver::run() {
  while (true) {
    Request request;
    {
      std::unique_lock lock(mutex_);
      wakeThread_.wait(lock, [this] { return stopping_ || !requests_.empty(); });
      if (stopping_) return;
      request = std::move(requests_.front());
      requests_.pop_front();
    }
    ResolveAnswer answer = lookup(request);
    {
      std::lock_guard lock(mutex_);
      answers_.push_back(std::move(answer));
    }
    const uint64_t one = 1;
    if (::write(wake_.get(), &one, sizeof(one)) != sizeof(one)) {
      spdlog::error("resolver: eventfd write: {}", std::strerror(errno));
    }
  }
}

ResolveAnswer HostResolver::lookup(const Request& request) const {
  ResolveAnswer answer;
  answer.id = request.id;
  addrinfo hints{};
  hints.ai_family = family_;
  hints.ai_socktype = SOCK_DGRAM;
  // A dual-stack socket reaches IPv4 peers at their v4-mapped addresses,
  // the form its received datagrams carry.
  if (family_ == AF_INET6) hints.ai_flags = AI_V4MAPPED | AI_ALL;
  addrinfo* results = nullptr;
  const int rc = ::getaddrinfo(request.host.c_str(), nullptr, &hints, &results);
  if (rc != 0) {
    answer.error = rc == EAI_SYSTEM ? std::string(std::strerror(errno)) : ::gai_strerror(rc);
  } else {
    answer.addrs = usableAddresses(results, family_, request.port);
    ::freeaddrinfo(results);
    if (answer.addrs.empty()) answer.error = "no address of a usable family";
  }
  if (answer.error.size() > privsep::MAX_RESOLVE_ERROR) {
    answer.error.resize(privsep::MAX_RESOLVE_ERROR);
  }
  return answer;
}

void HostResolver::onWake(evutil_socket_t fd, short, void* arg) {
  auto* self = static_cast<HostResolver*>(arg);
  uint64_t count = 0;
  if (::read(fd, &count, sizeof(count)) != sizeof(count)) return;
  std::deque<ResolveAnswer> answers;
  {
    std::lock_guard lock(self->mutex_);
    answers.swap(self->answers_);
  }
  for (auto& answer : answers) self->onAnswer_(std::move(answer));
}

}  // namespace fips::transport
