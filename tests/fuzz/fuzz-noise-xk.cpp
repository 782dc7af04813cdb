// SPDX-License-Identifier: MIT
// libFuzzer target: the FIPS XK handshake parsers. Byte 0 % 3 selects msg1
// (responder), msg2 (initiator after its fixed msg1) or msg3 (responder after
// the fixed msg1/msg2); the rest is the message. Fuzzing only; input is hostile.
#include <cstddef>
#include <cstdint>
#include <span>

#include "tests/fuzz/fuzz-noise-common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fips;
  using router::noise::FipsPattern;
  if (size < 1) return 0;
  const auto& f = fuzz::fixture();
  const std::span<const uint8_t> msg(data + 1, size - 1);
  std::array<uint8_t, router::noise::XK_MSG3_SIZE> buf{};
  auto init = f.initiator(FipsPattern::XK);
  auto resp = f.responder(FipsPattern::XK);
  const int which = data[0] % 3;
  if (which == 0) {
    (void)resp.readMessage(msg);
    return 0;
  }
  fuzz::writeNext(init, fuzz::INIT_EPHEMERAL, buf);  // msg1
  if (which == 1) {
    if (init.readMessage(msg) == router::noise::HandshakeStatus::OK) {
      fuzz::writeNext(init, fuzz::INIT_EPHEMERAL, buf);  // msg3 (no ephemeral drawn)
    }
    return 0;
  }
  if (resp.readMessage(std::span(buf).first(router::noise::XK_MSG1_SIZE)) !=
      router::noise::HandshakeStatus::OK) {
    __builtin_trap();  // the fixture's own msg1 must parse
  }
  fuzz::writeNext(resp, fuzz::RESP_EPHEMERAL, buf);  // msg2
  if (resp.readMessage(msg) == router::noise::HandshakeStatus::OK) (void)resp.split();
  return 0;
}
