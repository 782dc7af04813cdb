// SPDX-License-Identifier: MIT
// libFuzzer target: the SOCKS5 client (transports/tor/socks5-client.h) fed
// any proxy answer. Byte 0 picks credentials or none and a numeric or named
// target; byte 1 the size of each read. Every request written is well formed
// up to its phase; feed() never uses more than it is given, nothing is used
// once the handshake ended, and a DONE client has a bound address. Fuzzing
// only; input is hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "transports/tor/socks5-client.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fips::transport::tor;
  if (size < 2) return 0;
  const bool password = (data[0] & 1) != 0;
  const Socks5Target target =
      (data[0] & 2) != 0 ? Socks5Target{"192.0.2.1", 443} : Socks5Target{"peer.example.onion", 443};
  const size_t chunk = std::max<size_t>(1, data[1]);
  std::span<const uint8_t> in(data + 2, size - 2);
  Socks5Client client(target, password ? std::optional(Socks5Auth{"fips", "x:1"}) : std::nullopt);
  while (!in.empty()) {
    const auto out = client.output();
    if (!out.empty() && out[0] != 5 && out[0] != 1) __builtin_trap();
    client.sent(out.size());
    const auto piece = in.first(std::min(chunk, in.size()));
    const size_t used = client.feed(piece);
    if (used > piece.size()) __builtin_trap();
    const bool ended = client.phase() == Socks5Phase::DONE || client.phase() == Socks5Phase::FAILED;
    if (used == 0 && !ended) __builtin_trap();
    if (ended) {
      if (client.wanted() != 0 || !client.output().empty()) __builtin_trap();
      if (client.feed(in) != 0) __builtin_trap();
      if ((client.phase() == Socks5Phase::DONE) == client.boundAddress().empty()) __builtin_trap();
      if ((client.phase() == Socks5Phase::FAILED) == (client.error() == Socks5Error::NONE)) {
        __builtin_trap();
      }
      break;
    }
    in = in.subspan(used);
  }
  (void)socks5ErrorText(client.error());
  return 0;
}
