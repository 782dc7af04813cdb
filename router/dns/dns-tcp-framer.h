// SPDX-License-Identifier: MIT
// DnsTcpFramer: DNS over TCP's message framing (RFC 1035 §4.2.2, RFC 7766
// §8): each message is preceded by its length as two bytes, network order;
// a client may send several before reading any answer (pipelining). Runs in
// fips-router; the bytes come from any local TCP client (untrusted): never
// throws, holds at most one message plus what one read added.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace fips::router::dns {

// Sans-IO. Not thread-safe; one per connection.
class DnsTcpFramer {
 public:
  // Appends bytes read from the connection.
  void feed(std::span<const uint8_t> bytes);
  // The next whole message, in arrival order; nullopt until one is complete
  // or once broken().
  std::optional<std::vector<uint8_t>> next();
  // A message of length 0 arrived: no DNS message is that short, so the
  // stream is not DNS (the caller closes it).
  bool broken() const { return broken_; }
  // Bytes received and not yet returned by next().
  size_t buffered() const { return buffer_.size() - start_; }

  // `message` with its two-byte length in front. A message longer than
  // 65535 bytes is a bug (the responder's are far shorter): std::logic_error.
  static std::vector<uint8_t> frame(std::span<const uint8_t> message);

 private:
  std::vector<uint8_t> buffer_;
  size_t start_ = 0;  // first byte not yet returned
  bool broken_ = false;
};

}  // namespace fips::router::dns
