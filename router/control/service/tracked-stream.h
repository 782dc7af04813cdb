// SPDX-License-Identifier: MIT
// TrackedStream: a kj::AsyncIoStream that counts the reads that returned
// data, so the control server can close connections that never speak or
// fall silent, and can give back one byte it peeked at (the protocol
// sniff of the JSON-line compatibility socket). Runs on the control thread
// of fips-router.
#pragma once

#include <cstdint>

#include <kj/async-io.h>

namespace fips::router::control {

class TrackedStream final : public kj::AsyncIoStream {
 public:
  explicit TrackedStream(kj::Own<kj::AsyncIoStream> inner) : inner_(kj::mv(inner)) {}

  // True once any read returned data.
  bool heardFrom() const { return reads_ > 0; }
  // Reads that returned data so far.
  uint64_t reads() const { return reads_; }
  // The next read returns `byte` first (at most one byte is held back).
  void unread(kj::byte byte) { held_ = byte; }

  kj::Promise<size_t> tryRead(void* buffer, size_t minBytes, size_t maxBytes) override;
  kj::Promise<void> write(const void* buffer, size_t size) override;
  kj::Promise<void> write(kj::ArrayPtr<const kj::ArrayPtr<const kj::byte>> pieces) override;
  kj::Promise<void> whenWriteDisconnected() override;
  void shutdownWrite() override;
  void abortRead() override;

 private:
  kj::Own<kj::AsyncIoStream> inner_;
  uint64_t reads_ = 0;
  kj::Maybe<kj::byte> held_;
};

}  // namespace fips::router::control
