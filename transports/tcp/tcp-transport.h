// SPDX-License-Identifier: MIT
// The TCP transport (spec 06 §2): FMP packets over TCP connections, one per
// peer address, framed from the FMP common prefix (FmpStreamFramer). Runs
// in fips-transport-tcp. Outbound: a send to an address with no connection
// dials it (non-blocking connect bounded by connect_timeout_ms) and queues
// the packets until it is up. Inbound (with a bind_addr): at most
// max_inbound_connections accepted connections, each closed unless a whole
// FMP packet arrives within 30 s, and any connection closed on its first
// framing error (a TLS ClientHello, an HTTP request, a length over the MTU).
// Received packets go to the router in batches with the connection's remote
// address as the peer; the router sees addresses only, never connections.
// Payloads are opaque FMP frames: the worker never sees keys or plaintext.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "privsep/channel.h"
#include "privsep/libevent.h"
#include "privsep/socket-address.h"

#include "lib/unique-fd.h"
#include "supervisor.capnp.h"
#include "transport.capnp.h"
#include "transports/stream/fmp-stream-framer.h"
#include "transports/worker/datagram-batcher.h"

namespace fips::transport {

// How long an accepted connection may take to deliver its first whole FMP
// packet (spec 06 §2), seconds.
constexpr int FIRST_FRAME_TIMEOUT_SECS = 30;
// Bytes queued for one connection beyond which further packets are dropped
// (FMP is unreliable: a stalled peer loses packets, not the worker memory).
constexpr size_t MAX_QUEUED_BYTES = 4 * 1024 * 1024;

// The counters of TcpStats in the reference (same names in TransportEvent
// stats, fipsctl show transports and the JSON), plus framing_errors.
struct TcpCounters {
  uint64_t packetsSent = 0;
  uint64_t bytesSent = 0;
  uint64_t packetsRecv = 0;
  uint64_t bytesRecv = 0;
  uint64_t sendErrors = 0;  // packets dropped on the send side
  uint64_t recvErrors = 0;  // connections ended by a read error or framing error
  uint64_t framingErrors = 0;
  uint64_t mtuExceeded = 0;
  uint64_t connectionsEstablished = 0;  // outbound connects that completed
  uint64_t connectionsAccepted = 0;
  uint64_t connectionsRejected = 0;  // over max_inbound_connections
  uint64_t connectTimeouts = 0;
  uint64_t connectRefused = 0;
  uint64_t firstFrameTimeouts = 0;
  uint64_t poolInbound = 0;  // connections open now
  uint64_t poolOutbound = 0;
};

// Not copyable or movable (libevent holds pointers to it).
class TcpTransport {
 public:
  explicit TcpTransport(privsep::EventBase& base);
  ~TcpTransport();
  TcpTransport(const TcpTransport&) = delete;
  TcpTransport& operator=(const TcpTransport&) = delete;

  // Binds and listens on the slice's bindAddr when it is not empty, fills
  // `bound` (the listening address, or none). Throws std::runtime_error
  // naming the address.
  void open(schema::TransportConfig::Reader slice, schema::TransportEvent::Bound::Builder bound);
  // Starts accepting; packets and stats (once per second) go to `router`.
  void start(privsep::Channel& router);
  // Writes each packet of the batch to its peer's connection, dialing it
  // if there is none. An unusable endpoint or a packet over the MTU is
  // counted and dropped.
  void send(capnp::List<schema::Datagram>::Reader batch);

  const TcpCounters& counters() const { return counters_; }

 private:
  struct Connection;
  using Key = std::string;

  static void onAcceptable(evutil_socket_t, short, void* arg);
  static void onReadable(evutil_socket_t, short, void* arg);
  static void onWritable(evutil_socket_t, short, void* arg);
  static void onTimer(evutil_socket_t, short, void* arg);
  static void onStatsTimer(evutil_socket_t, short, void* arg);
  static void onAcceptPause(evutil_socket_t, short, void* arg);

  void acceptAll();
  Connection* dial(const privsep::SocketAddress& peer);
  Connection* add(UniqueFd fd, const privsep::SocketAddress& peer, bool inbound);
  void configure(int fd) const;
  void readFrom(Connection& c);
  bool flushOut(Connection& c);
  void connected(Connection& c);
  void close(Connection& c);
  void pauseReading();
  void resumeReading();
  void sendStats();

  privsep::EventBase& base_;
  privsep::Channel* router_ = nullptr;
  std::unique_ptr<DatagramBatcher> batcher_;
  UniqueFd listener_;
  privsep::EventPtr acceptEvent_;
  privsep::EventPtr acceptPause_;
  privsep::EventPtr statsTimer_;
  std::map<Key, std::unique_ptr<Connection>> connections_;
  uint16_t mtu_ = 1400;
  uint32_t connectTimeoutMs_ = 5000;
  bool nodelay_ = true;
  uint32_t keepaliveSecs_ = 30;
  uint32_t recvBufSize_ = 0;
  uint32_t sendBufSize_ = 0;
  uint32_t maxInbound_ = 256;
  bool paused_ = false;  // reads stopped until the router channel drains
  TcpCounters counters_;
};

}  // namespace fips::transport
