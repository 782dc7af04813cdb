// SPDX-License-Identifier: MIT
// The FMP stream framer (see fmp-stream-framer.h).
#include "transports/stream/fmp-stream-framer.h"

#include <algorithm>
#include <cstring>

#include "router/fmp/fmp-constants.h"

namespace fips::transport {

namespace fmp = router::fmp;

const char* framingErrorName(FramingError error) {
  switch (error) {
    case FramingError::NONE:
      return "none";
    case FramingError::BAD_VERSION:
      return "bad version";
    case FramingError::BAD_PHASE:
      return "bad phase";
    case FramingError::TOO_LONG:
      return "length over the MTU";
    case FramingError::HANDSHAKE_SIZE:
      return "bad handshake length";
  }
  return "?";
}

FrameLength fmpFrameLength(std::span<const uint8_t, 4> prefix, uint16_t mtu) {
  const uint8_t version = prefix[0] >> 4;
  const uint8_t phase = prefix[0] & 0x0F;
  const uint16_t payloadLen = static_cast<uint16_t>(prefix[2] | (prefix[3] << 8));
  if (version != fmp::FMP_VERSION) return {0, FramingError::BAD_VERSION};
  switch (static_cast<fmp::FmpPhase>(phase)) {
    case fmp::FmpPhase::ESTABLISHED: {
      const size_t maxPayload =
          mtu > fmp::ESTABLISHED_MIN_SIZE ? mtu - fmp::ESTABLISHED_MIN_SIZE : 0;
      if (payloadLen > maxPayload) return {0, FramingError::TOO_LONG};
      return {fmp::ESTABLISHED_MIN_SIZE + payloadLen, FramingError::NONE};
    }
    case fmp::FmpPhase::MSG1:
      if (payloadLen != fmp::MSG1_PAYLOAD_LEN) return {0, FramingError::HANDSHAKE_SIZE};
      return {fmp::MSG1_SIZE, FramingError::NONE};
    case fmp::FmpPhase::MSG2:
      if (payloadLen != fmp::MSG2_PAYLOAD_LEN) return {0, FramingError::HANDSHAKE_SIZE};
      return {fmp::MSG2_SIZE, FramingError::NONE};
  }
  return {0, FramingError::BAD_PHASE};
}

FmpStreamFramer::FmpStreamFramer(uint16_t mtu, size_t readChunk)
    : buffer_(std::max<size_t>(readChunk, 1) + std::max<size_t>(mtu, fmp::MSG1_SIZE)),
      mtu_(mtu),
      readChunk_(std::max<size_t>(readChunk, 1)) {}

std::span<uint8_t> FmpStreamFramer::writable() {
  if (broken()) return {};
  if (buffer_.size() - end_ < readChunk_) {
    // Only a partial packet (at most one MTU) is left: move it to the front.
    std::memmove(buffer_.data(), buffer_.data() + start_, end_ - start_);
    end_ -= start_;
    start_ = 0;
  }
  return std::span<uint8_t>(buffer_.data() + end_, buffer_.size() - end_);
}

void FmpStreamFramer::commit(size_t n) {
  end_ += std::min(n, buffer_.size() - end_);
}

void FmpStreamFramer::feed(std::span<const uint8_t> bytes) {
  if (broken() || bytes.empty()) return;
  if (buffer_.size() - end_ < bytes.size() && start_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + start_, end_ - start_);
    end_ -= start_;
    start_ = 0;
  }
  if (buffer_.size() - end_ < bytes.size()) buffer_.resize(end_ + bytes.size());
  std::memcpy(buffer_.data() + end_, bytes.data(), bytes.size());
  end_ += bytes.size();
}

std::optional<std::span<const uint8_t>> FmpStreamFramer::next() {
  if (broken() || end_ - start_ < fmp::PREFIX_SIZE) return std::nullopt;
  const uint8_t* head = buffer_.data() + start_;
  const FrameLength frame = fmpFrameLength(std::span<const uint8_t, 4>(head, 4), mtu_);
  if (frame.error != FramingError::NONE) {
    error_ = frame.error;
    return std::nullopt;
  }
  if (end_ - start_ < frame.length) return std::nullopt;
  start_ += frame.length;
  ++frames_;
  return std::span<const uint8_t>(head, frame.length);
}

}  // namespace fips::transport
