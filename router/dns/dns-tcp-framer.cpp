// SPDX-License-Identifier: MIT
// DnsTcpFramer (see dns-tcp-framer.h).
#include "router/dns/dns-tcp-framer.h"

#include <stdexcept>

namespace fips::router::dns {

void DnsTcpFramer::feed(std::span<const uint8_t> bytes) {
  if (broken_) return;
  // Drop what was returned before growing, so the buffer holds at most one
  // partial message plus this read.
  if (start_ > 0) {
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(start_));
    start_ = 0;
  }
  buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
}

std::optional<std::vector<uint8_t>> DnsTcpFramer::next() {
  if (broken_ || buffered() < 2) return std::nullopt;
  const size_t length = static_cast<size_t>(buffer_[start_]) << 8 | buffer_[start_ + 1];
  if (length == 0) {
    broken_ = true;
    return std::nullopt;
  }
  if (buffered() < 2 + length) return std::nullopt;
  const auto first = buffer_.begin() + static_cast<std::ptrdiff_t>(start_ + 2);
  std::vector<uint8_t> message(first, first + static_cast<std::ptrdiff_t>(length));
  start_ += 2 + length;
  return message;
}

std::vector<uint8_t> DnsTcpFramer::frame(std::span<const uint8_t> message) {
  if (message.size() > UINT16_MAX) throw std::logic_error("DNS message over 65535 bytes");
  std::vector<uint8_t> out;
  out.reserve(2 + message.size());
  out.push_back(static_cast<uint8_t>(message.size() >> 8));
  out.push_back(static_cast<uint8_t>(message.size()));
  out.insert(out.end(), message.begin(), message.end());
  return out;
}

}  // namespace fips::router::dns
