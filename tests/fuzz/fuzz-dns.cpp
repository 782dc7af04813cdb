// SPDX-License-Identifier: MIT
// libFuzzer target: the `.fips` DNS responder (spec 05 §4) on any datagram.
// A decoded message must re-encode to bytes that decode to the same message,
// and a reply, when there is one, must decode as a response with the query's
// id. Fuzzing only; input is hostile.
#include <cstddef>
#include <cstdint>
#include <span>

#include "router/dns/dns-message.h"
#include "router/dns/dns-responder.h"

namespace {

const fips::router::dns::HostMap& hosts() {
  static const fips::router::dns::HostMap map = [] {
    fips::router::dns::HostMap m;
    m.insert("gateway", "npub10xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqpkge6d");
    return m;
  }();
  return map;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fips::router::dns;
  const std::span<const uint8_t> input(data, size);
  const auto decoded = decodeDnsMessage(input);
  if (decoded.ok()) {
    const auto again = decodeDnsMessage(encodeDnsMessage(decoded.value()));
    if (!again.ok() || !(again.value() == decoded.value())) __builtin_trap();
  }
  const auto reply = answerDnsQuery(input, 300, hosts());
  if (reply) {
    const auto parsed = decodeDnsMessage(reply->bytes);
    if (!parsed.ok() || (parsed.value().flags & DNS_FLAG_QR) == 0) __builtin_trap();
    if (parsed.value().id != static_cast<uint16_t>((data[0] << 8) | data[1])) __builtin_trap();
  }
  return 0;
}
