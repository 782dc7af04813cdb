// SPDX-License-Identifier: MIT
// libFuzzer target: the FIPS IK handshake parsers. Byte 0 selects the parser
// (even: responder reads msg1; odd: initiator, after its fixed msg1, reads
// msg2); the rest is the message. Fuzzing only; input is hostile.
#include <cstddef>
#include <cstdint>
#include <span>

#include "tests/fuzz/fuzz-noise-common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fips;
  if (size < 1) return 0;
  const auto& f = fuzz::fixture();
  const std::span<const uint8_t> msg(data + 1, size - 1);
  if (data[0] % 2 == 0) {
    auto resp = f.responder(router::noise::FipsPattern::IK);
    if (resp.readMessage(msg) == router::noise::HandshakeStatus::OK) {
      std::array<uint8_t, router::noise::IK_MSG2_SIZE> out{};
      fuzz::writeNext(resp, fuzz::RESP_EPHEMERAL, out);
      (void)resp.split();
    }
  } else {
    auto init = f.initiator(router::noise::FipsPattern::IK);
    std::array<uint8_t, router::noise::IK_MSG1_SIZE> m1{};
    fuzz::writeNext(init, fuzz::INIT_EPHEMERAL, m1);
    if (init.readMessage(msg) == router::noise::HandshakeStatus::OK) (void)init.split();
  }
  return 0;
}
