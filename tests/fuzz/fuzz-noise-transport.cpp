// SPDX-License-Identifier: MIT
// libFuzzer target: transport decryption with replay window and trial
// decryption. The input is a sequence of FMP frames, each prefixed by a u16 LE
// length; frames go to a link-layer KeyEpochs holding current, pending and
// previous keys (the IK vector's k1 is current). Fuzzing only; input is hostile.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "router/noise/key-epochs.h"

namespace {

fips::router::noise::TransportKeys keys(uint8_t seed) {
  fips::router::noise::TransportKeys k;
  for (size_t i = 0; i < 32; ++i) {
    k.send.mutableBytes()[i] = static_cast<uint8_t>(seed + i);
    k.recv.mutableBytes()[i] = static_cast<uint8_t>(seed + i);
  }
  return k;
}

// The IK vector's initiator→responder key.
constexpr std::array<uint8_t, 32> K1 = {
    0xca, 0x80, 0xa5, 0x59, 0x07, 0x10, 0x6a, 0x94, 0x55, 0x0a, 0x1a, 0x00, 0xe8, 0x6b, 0x1b, 0x0f,
    0x68, 0xdf, 0x2b, 0xd7, 0xe9, 0xd2, 0xf3, 0x73, 0xda, 0x08, 0x57, 0x97, 0x0f, 0xdf, 0xb1, 0x7b};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fips::router::noise;
  TransportKeys previous = keys(1);
  previous.recv = fips::crypto::Secret<32>(K1);
  KeyEpochs epochs(RekeyLayer::LINK, previous);
  epochs.setPending(keys(2));
  (void)epochs.cutover(0);  // K1 is now previous (draining), keys(2) current
  epochs.setPending(keys(3));
  std::vector<uint8_t> out;
  size_t pos = 0;
  uint64_t now = 0;
  while (size - pos >= 2) {
    const size_t len = data[pos] | (static_cast<size_t>(data[pos + 1]) << 8U);
    pos += 2;
    if (len > size - pos) break;
    const std::span<const uint8_t> frame(data + pos, len);
    pos += len;
    now += 1000;
    if (frame.size() < 32) continue;
    out.resize(frame.size() - 32);
    (void)epochs.openFrame((frame[1] & 1U) != 0, frame.first(16), 8, frame.subspan(16), out, now);
  }
  return 0;
}
