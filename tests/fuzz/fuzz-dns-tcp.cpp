// SPDX-License-Identifier: MIT
// libFuzzer target: DNS over TCP (RFC 7766) as the router's responder reads
// it: any byte stream, fed in two reads split where the first byte says,
// through the length framing and each whole message through the responder.
// Every input byte is either in a returned message (with its length), still
// buffered, or after a zero length; each reply decodes. Fuzzing only; input
// is hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "router/dns/dns-message.h"
#include "router/dns/dns-responder.h"
#include "router/dns/dns-tcp-framer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fips::router::dns;
  if (size == 0) return 0;
  const std::span<const uint8_t> stream(data + 1, size - 1);
  const size_t cut = std::min<size_t>(data[0], stream.size());
  static const HostMap hosts;
  DnsTcpFramer framer;
  size_t consumed = 0;
  auto drain = [&] {
    while (auto message = framer.next()) {
      consumed += 2 + message->size();
      const auto reply = answerDnsQuery(*message, 300, hosts);
      if (reply && !decodeDnsMessage(reply->bytes).ok()) __builtin_trap();
      if (reply) (void)DnsTcpFramer::frame(reply->bytes);
    }
  };
  framer.feed(stream.first(cut));
  drain();
  framer.feed(stream.subspan(cut));
  drain();
  if (!framer.broken() && consumed + framer.buffered() != stream.size()) __builtin_trap();
  if (consumed > stream.size()) __builtin_trap();
  return 0;
}
