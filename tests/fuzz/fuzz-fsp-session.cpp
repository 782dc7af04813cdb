// SPDX-License-Identifier: MIT
// libFuzzer target: hostile FSP messages fed to a session table that holds
// an established session (FIPS spec 04 §2-§6): the first byte picks the
// sender (the session peer, a stranger, or the peer over another link),
// the rest is the FSP message; then both tables run their timers. Nothing
// may crash, and the established session must survive anything that is not
// a valid handshake. Fuzzing only; input is hostile.
#include <cstddef>
#include <cstdint>
#include <span>

#include "router/fsp/session-test-net.h"

namespace {

using namespace fips::router::fsp;

const char* const SECRET_A = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20";
const char* const SECRET_B = "b102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1fb0";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  test::TestNet net;
  const size_t a = net.add(SECRET_A);
  const size_t b = net.add(SECRET_B);
  net.introduce(a, b);
  net.send(a, b, {1, 2, 3});
  net.run();
  const NodeAddr stranger(std::array<uint8_t, 16>{0x42});
  const NodeAddr& src = (data[0] & 1U) != 0 ? stranger : net.node(a).addr;
  const NodeAddr& link = (data[0] & 2U) != 0 ? stranger : net.node(a).addr;
  SessionActions out;
  net.node(b).table.onDatagram(src, link, std::span<const uint8_t>(data + 1, size - 1), 1280,
                               (data[0] & 4U) != 0, net.now(), net.rng(), out);
  net.collect(b, out);
  net.run();
  for (uint64_t step : {1'000U, 100'000U}) {
    net.advance(step);
    net.tick(a);
    net.tick(b);
    net.run();
  }
  return 0;
}
