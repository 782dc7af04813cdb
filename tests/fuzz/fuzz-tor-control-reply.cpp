// SPDX-License-Identifier: MIT
// libFuzzer target: tor's control-port replies as fips-transport-tor reads
// them (transports/tor/control-reply.h), fed in two reads split where the
// first byte says, and every whole reply through the interpreters of
// tor-control.h (PROTOCOLINFO, AUTHCHALLENGE, GETINFO status, ADD_ONION).
// No reply may exceed the caps; a broken parser returns no new reply.
// Fuzzing only; input is hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "transports/tor/control-reply.h"
#include "transports/tor/tor-control.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fips::transport::tor;
  if (size == 0) return 0;
  const std::span<const uint8_t> stream(data + 1, size - 1);
  const size_t cut = std::min<size_t>(data[0], stream.size());
  ControlReplyParser parser;
  auto drain = [&] {
    while (auto reply = parser.next()) {
      if (reply->lines.empty() || reply->status < 0 || reply->status > 999) __builtin_trap();
      size_t bytes = 0;
      for (const auto& line : reply->lines) {
        bytes += line.text.size() + (line.data ? line.data->size() : 0);
      }
      if (bytes > CONTROL_MAX_REPLY) __builtin_trap();
      (void)parseProtocolInfo(*reply);
      (void)parseAuthChallenge(*reply);
      (void)parseStatus(*reply);
      (void)parseAddOnion(*reply);
      for (const auto& line : reply->lines) (void)parseKeywordArgs(line.text);
    }
  };
  parser.feed(stream.first(cut));
  drain();
  const bool brokenBefore = !parser.broken().empty();
  parser.feed(stream.subspan(cut));
  if (brokenBefore && parser.next()) __builtin_trap();
  drain();
  return 0;
}
