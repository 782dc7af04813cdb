// SPDX-License-Identifier: MIT
// TrackedStream (see tracked-stream.h): every call goes to the wrapped
// stream, after a byte given back with unread().
#include "router/control/service/tracked-stream.h"

namespace fips::router::control {

kj::Promise<size_t> TrackedStream::tryRead(void* buffer, size_t minBytes, size_t maxBytes) {
  KJ_IF_MAYBE (byte, held_) {
    if (maxBytes == 0) return size_t(0);
    auto* out = static_cast<kj::byte*>(buffer);
    out[0] = *byte;
    held_ = nullptr;
    if (minBytes <= 1) return size_t(1);
    return inner_->tryRead(out + 1, minBytes - 1, maxBytes - 1).then([this](size_t n) {
      if (n > 0) ++reads_;
      return n + 1;
    });
  }
  return inner_->tryRead(buffer, minBytes, maxBytes).then([this](size_t n) {
    if (n > 0) ++reads_;
    return n;
  });
}

kj::Promise<void> TrackedStream::write(const void* buffer, size_t size) {
  return inner_->write(buffer, size);
}

kj::Promise<void> TrackedStream::write(kj::ArrayPtr<const kj::ArrayPtr<const kj::byte>> pieces) {
  return inner_->write(pieces);
}

kj::Promise<void> TrackedStream::whenWriteDisconnected() {
  return inner_->whenWriteDisconnected();
}

void TrackedStream::shutdownWrite() {
  inner_->shutdownWrite();
}

void TrackedStream::abortRead() {
  inner_->abortRead();
}

}  // namespace fips::router::control
