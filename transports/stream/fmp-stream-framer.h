// SPDX-License-Identifier: MIT
// FmpStreamFramer: recovers FMP packets from a byte stream (TCP, Tor) using
// the 4-byte FMP common prefix alone, as spec 06 §2 says: no length prefix,
// version nibble 0, phase 0 with payload_len <= mtu - 32 (then 12 +
// payload_len + 16 more bytes), phase 1 with payload_len 110, phase 2 with
// payload_len 65; anything else breaks the stream for good (the caller
// closes it). Runs in the stream transport workers on untrusted network
// bytes: never throws; read through writable(), it holds at most one read
// plus one partial packet.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace fips::transport {

// Why a stream stopped being FMP (spec 06 §2).
enum class FramingError : uint8_t {
  NONE,
  BAD_VERSION,     // version nibble not 0 (a TLS ClientHello, an HTTP request)
  BAD_PHASE,       // phase nibble not 0, 1 or 2
  TOO_LONG,        // established payload_len above mtu - 32
  HANDSHAKE_SIZE,  // msg1 payload_len not 110, msg2 not 65
};

// A short lower-case name of `error` ("bad version", ...), for logs.
const char* framingErrorName(FramingError error);

// The whole length of the FMP packet whose first 4 bytes are `prefix`, or
// the framing error they show, for a connection whose MTU is `mtu` bytes.
struct FrameLength {
  size_t length = 0;
  FramingError error = FramingError::NONE;
};
FrameLength fmpFrameLength(std::span<const uint8_t, 4> prefix, uint16_t mtu);

// Sans-IO, one per connection. Bytes go in through writable()/commit() (read
// straight into the framer's buffer) or feed(); whole packets come out of
// next() in arrival order, as views into the buffer.
class FmpStreamFramer {
 public:
  // `mtu`: the largest packet the connection takes (transport MTU, bytes).
  // `readChunk`: the room writable() offers at least, bytes.
  explicit FmpStreamFramer(uint16_t mtu, size_t readChunk = 64 * 1024);

  // Room to read into: at least readChunk bytes when next() has been
  // drained. Invalidates views from next(). Empty once broken().
  std::span<uint8_t> writable();
  // `n` bytes were written at the start of writable().
  void commit(size_t n);
  // Copies `bytes` in (tests, fuzzing); the buffer grows to hold them.
  void feed(std::span<const uint8_t> bytes);

  // The next whole packet, valid until the next writable()/feed(); nullopt
  // when none is complete yet or the stream is broken (see error()).
  std::optional<std::span<const uint8_t>> next();

  FramingError error() const { return error_; }
  bool broken() const { return error_ != FramingError::NONE; }
  // Whole packets returned so far.
  uint64_t frames() const { return frames_; }
  // Bytes received and not yet returned by next().
  size_t buffered() const { return end_ - start_; }

 private:
  std::vector<uint8_t> buffer_;
  size_t start_ = 0;  // first byte not yet returned
  size_t end_ = 0;    // one past the last byte received
  uint16_t mtu_;
  size_t readChunk_;
  uint64_t frames_ = 0;
  FramingError error_ = FramingError::NONE;
};

}  // namespace fips::transport
