// SPDX-License-Identifier: MIT
// libFuzzer target: the FMP stream framer of the TCP and Tor workers (spec
// 06 §2) on any byte stream: byte 0 picks the MTU, byte 1 the size of each
// read; the rest goes through writable()/commit() read by read. Every
// packet returned has the length its prefix gives and lies inside the
// stream; once broken, nothing more comes out; otherwise every byte is
// either returned or still buffered. Fuzzing only; input is hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "transports/stream/fmp-stream-framer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fips::transport;
  if (size < 2) return 0;
  const uint16_t mtu = static_cast<uint16_t>(64 + data[0] * 8);  // 64 .. 2104
  const size_t step = 1 + data[1] * 3u;
  const std::span<const uint8_t> stream(data + 2, size - 2);
  FmpStreamFramer framer(mtu, 512);
  size_t returned = 0;
  size_t fed = 0;
  while (fed < stream.size() && !framer.broken()) {
    auto room = framer.writable();
    if (room.empty()) __builtin_trap();
    const size_t n = std::min({step, room.size(), stream.size() - fed});
    std::memcpy(room.data(), stream.data() + fed, n);
    framer.commit(n);
    fed += n;
    while (auto frame = framer.next()) {
      if (frame->size() < 4) __builtin_trap();
      const auto want = fmpFrameLength(frame->first<4>(), mtu);
      if (want.error != FramingError::NONE || want.length != frame->size()) __builtin_trap();
      if (frame->size() > std::max<size_t>(mtu, 114)) __builtin_trap();
      if (std::memcmp(frame->data(), stream.data() + returned, frame->size()) != 0)
        __builtin_trap();
      returned += frame->size();
    }
  }
  if (framer.broken() && framer.next()) __builtin_trap();
  if (!framer.broken() && returned + framer.buffered() != fed) __builtin_trap();
  return 0;
}
