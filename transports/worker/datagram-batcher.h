// SPDX-License-Identifier: MIT
// DatagramBatcher: how every transport worker hands received datagrams to
// the router: collected, then sent as TransportEvent.datagrams messages of
// at most MAX_MESSAGE_PAYLOAD payload bytes each (one SEQPACKET message
// must fit the channel's socket buffer), and the backpressure rule (stop
// reading the network while MAX_QUEUED_MESSAGES wait for the router). Runs
// in fips-transport-*; payloads are opaque FMP frames.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "privsep/channel.h"
#include "privsep/socket-address.h"

namespace fips::transport {

// Payload bytes per message to the router (it accepts 256 KiB messages).
constexpr size_t MAX_MESSAGE_PAYLOAD = 96 * 1024;
// Router messages in flight before a worker stops reading the network.
constexpr size_t MAX_QUEUED_MESSAGES = 16;

// Not copyable; one per worker.
class DatagramBatcher {
 public:
  explicit DatagramBatcher(privsep::Channel& router) : router_(router) {}
  DatagramBatcher(const DatagramBatcher&) = delete;
  DatagramBatcher& operator=(const DatagramBatcher&) = delete;

  // Copies one datagram from `from` in; sends what is collected first when
  // it would pass MAX_MESSAGE_PAYLOAD.
  void add(const privsep::SocketAddress& from, std::span<const uint8_t> payload);
  // Sends what is collected (nothing when empty).
  void flush();
  // True while the router has not taken MAX_QUEUED_MESSAGES messages: stop
  // reading until the channel's onDrained.
  bool backlogged() const { return router_.queued() >= MAX_QUEUED_MESSAGES; }

 private:
  struct Entry {
    privsep::SocketAddress from;
    size_t offset;
    size_t length;
  };
  privsep::Channel& router_;
  std::vector<Entry> entries_;
  std::vector<uint8_t> bytes_;
};

}  // namespace fips::transport
