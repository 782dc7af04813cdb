// SPDX-License-Identifier: MIT
// DnsTcpListener: the `.fips` responder over TCP (RFC 7766), beside the UDP
// socket on the same address and port, for clients that fall back to TCP or
// start there (`dig +tcp`, resolvers after a truncated answer). Runs in
// fips-router; connections come from any local client and are untrusted.
//
// Pipeline: the listening socket (bound before seccomp, or by the
// tun-helper for a privileged port) becomes readable -> accept4; a peer in
// fd00::/8 (the mesh, as the UDP socket drops what arrives on fips0) is
// closed at once, so is any connection beyond DNS_TCP_MAX_CONNECTIONS ->
// reads into the connection's DnsTcpFramer -> each whole message to the
// answer function, in order (pipelining) -> the framed reply is sent, or
// queued until the socket is writable. A connection is closed after
// DNS_TCP_IDLE_SECS without a query (RFC 7766 §6.2.3), on a zero-length
// message, on EOF once its replies are out, and when it stops reading its
// replies (more than DNS_TCP_MAX_QUEUED bytes waiting).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "privsep/libevent.h"

#include "lib/unique-fd.h"
#include "router/dns/dns-tcp-framer.h"

namespace fips::router {

inline constexpr size_t DNS_TCP_MAX_CONNECTIONS = 16;
inline constexpr int DNS_TCP_IDLE_SECS = 10;
inline constexpr size_t DNS_TCP_MAX_QUEUED = 16 * 1024;

// What the listener did (for logs and tests).
struct DnsTcpCounters {
  uint64_t accepted = 0;
  uint64_t overLimit = 0;  // closed at once: DNS_TCP_MAX_CONNECTIONS open
  uint64_t meshPeer = 0;   // closed at once: a peer address in fd00::/8
  uint64_t idleClosed = 0;
  uint64_t broken = 0;  // zero-length message, or replies not read
};

// Not copyable or movable.
class DnsTcpListener {
 public:
  // The reply to one query, nullopt for none.
  using AnswerFn = std::function<std::optional<std::vector<uint8_t>>(std::span<const uint8_t>)>;

  // Serves `listener` (bound, listening, non-blocking) on `base`.
  DnsTcpListener(privsep::EventBase& base, UniqueFd listener, AnswerFn answer);
  DnsTcpListener(const DnsTcpListener&) = delete;
  DnsTcpListener& operator=(const DnsTcpListener&) = delete;
  ~DnsTcpListener();

  size_t connections() const { return connections_.size(); }
  const DnsTcpCounters& counters() const { return counters_; }

 private:
  struct Connection;

  static void onAccept(evutil_socket_t, short, void* arg);
  static void onConnection(evutil_socket_t, short what, void* arg);
  void acceptOne(int fd);
  void serve(Connection& c, short what);
  // Reads what is there; false when the connection is to be closed.
  bool readSome(Connection& c);
  // Sends what is queued; false on a send error.
  bool flush(Connection& c);
  void close(Connection& c);

  privsep::EventBase& base_;
  UniqueFd listener_;
  AnswerFn answer_;
  privsep::EventPtr acceptEvent_;
  std::map<int, std::unique_ptr<Connection>> connections_;
  DnsTcpCounters counters_;
};

}  // namespace fips::router
