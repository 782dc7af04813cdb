// SPDX-License-Identifier: MIT
// libFuzzer target: a decrypted FMP inner plaintext through the inner header,
// the link-message envelope check and the typed link-message decoders (spec
// 02 §3.2, §6-§9, spec 03 envelopes). Checks decode → encode → decode
// consistency for every type that has an encoder. Fuzzing only; input is
// hostile.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "router/fmp/disconnect.h"
#include "router/fmp/inner-header.h"
#include "router/fmp/link-message.h"
#include "router/fmp/link-reports.h"
#include "router/fmp/session-datagram.h"

namespace {

using namespace fips::router::fmp;

template <typename A, typename B>
void requireSame(const A& a, const B& b) {
  if (!std::equal(a.begin(), a.end(), b.begin(), b.end())) __builtin_trap();
}

void checkTyped(const LinkMessage& msg, std::span<const uint8_t> message) {
  switch (msg.type) {
    case LinkMessageType::SESSION_DATAGRAM: {
      const auto dg = decodeSessionDatagram(msg.body);
      if (!dg.ok()) __builtin_trap();
      requireSame(encodeSessionDatagram(dg.value()), message);
      break;
    }
    case LinkMessageType::SENDER_REPORT: {
      const auto r = decodeSenderReport(msg.body);
      if (!r.ok()) __builtin_trap();
      const auto again = encodeSenderReport(r.value());
      if (!(decodeSenderReport(std::span(again).subspan(1)).value() == r.value())) {
        __builtin_trap();
      }
      break;
    }
    case LinkMessageType::RECEIVER_REPORT: {
      const auto r = decodeReceiverReport(msg.body);
      if (!r.ok()) __builtin_trap();
      const auto again = encodeReceiverReport(r.value());
      if (!(decodeReceiverReport(std::span(again).subspan(1)).value() == r.value())) {
        __builtin_trap();
      }
      break;
    }
    case LinkMessageType::DISCONNECT: {
      const auto reason = decodeDisconnect(msg.body);
      if (!reason.ok()) __builtin_trap();
      const auto again = encodeDisconnect(reason.value());
      if (decodeDisconnect(std::span(again).subspan(1)).value() != reason.value()) {
        __builtin_trap();
      }
      break;
    }
    case LinkMessageType::HEARTBEAT:
    case LinkMessageType::TREE_ANNOUNCE:
    case LinkMessageType::FILTER_ANNOUNCE:
    case LinkMessageType::LOOKUP_REQUEST:
    case LinkMessageType::LOOKUP_RESPONSE:
      break;
  }
  requireSame(encodeLinkMessage(msg.type, msg.body), message);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> plaintext(data, size);
  const auto inner = decodeInnerPlaintext(plaintext);
  if (!inner.ok()) return 0;
  requireSame(encodeInnerPlaintext(inner->timestampMs, inner->message), plaintext);
  const auto msg = decodeLinkMessage(inner->message);
  if (!msg.ok()) return 0;
  checkTyped(msg.value(), inner->message);
  return 0;
}
