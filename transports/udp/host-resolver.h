// SPDX-License-Identifier: MIT
// HostResolver: looks up peer host names for the router at connect time
// (the reference resolves "host:port" peers when it dials them). getaddrinfo
// blocks, so one resolver thread runs the lookups in order and hands answers
// back to the event loop through an eventfd; nothing else is shared between
// the threads. Runs in fips-transport-udp; the names come from the router
// (checked by the caller) and the answers from the system resolver.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <netdb.h>
#include <string>
#include <thread>
#include <vector>

#include "privsep/libevent.h"
#include "privsep/socket-address.h"

#include "lib/unique-fd.h"

namespace fips::transport {

// One answer: the addresses in resolver order (RFC 6724 sorting, at most
// privsep::MAX_RESOLVED_ADDRS, duplicates removed, the requested port set),
// or none and a one-line error.
struct ResolveAnswer {
  uint32_t id = 0;
  std::vector<privsep::SocketAddress> addrs;
  std::string error;
};

// The addresses of `results` of `family` (the socket's: AF_INET, or
// AF_INET6 for a dual-stack socket, where getaddrinfo was asked for IPv4 as
// v4-mapped addresses), in order, with `port` (host order) set, duplicates
// removed, at most MAX_RESOLVED_ADDRS.
std::vector<privsep::SocketAddress> usableAddresses(const addrinfo* results, int family,
                                                    uint16_t port);

// Not copyable or movable. The thread starts on the first request (after
// the worker's sandbox is in place) and is joined by the destructor.
class HostResolver {
 public:
  using AnswerHandler = std::function<void(ResolveAnswer)>;

  // family: the worker socket's address family (AF_INET or AF_INET6).
  HostResolver(privsep::EventBase& base, int family, AnswerHandler onAnswer);
  HostResolver(const HostResolver&) = delete;
  HostResolver& operator=(const HostResolver&) = delete;
  ~HostResolver();

  // Queues a lookup of `host` (a valid host name) for port `port`.
  void resolve(uint32_t id, std::string host, uint16_t port);

 private:
  struct Request {
    uint32_t id;
    std::string host;
    uint16_t port;
  };

  void run();
  ResolveAnswer lookup(const Request& request) const;
  static void onWake(evutil_socket_t, short, void* arg);

  int family_;
  AnswerHandler onAnswer_;
  UniqueFd wake_;  // eventfd: the thread counts answers, the loop reads
  privsep::EventPtr wakeEvent_;
  std::mutex mutex_;
  std::condition_variable wakeThread_;
  std::deque<Request> requests_;
  std::deque<ResolveAnswer> answers_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace fips::transport
